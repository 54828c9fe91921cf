import MeridianCore

/// Why a map link could not be built; each message names the input and what is allowed.
package enum MapLinkError: Error, Equatable, CustomStringConvertible {
    /// Parameter `parameter` did not hold a valid `LAT,LON`.
    case invalidCoordinate(parameter: String, CoordinateError)
    case unknownStyle(String)
    case unknownMode(String)
    /// The style cannot express this travel mode (e.g. cycling in `apple-legacy`, any mode in `geo`).
    case modeNotSupported(TravelMode, style: MapStyle)
    /// A start point was given for a link that only shows the destination.
    case sourceWithoutMode(style: MapStyle)
    /// The style cannot point at this kind of destination (e.g. an address as a `geo:` URI).
    case destinationNotSupported(kind: String, style: MapStyle)
    /// Parameter `parameter` was present but blank.
    case empty(parameter: String)
    case invalidAccuracy(String)
    case missingDestination
    /// `parameter` was given with a destination it does not go with.
    case misplaced(parameter: String, allowedWith: String)
    case conflictingDestinations([String])
    /// No flyer has this id.
    case unknownFlyer(String)
    /// Flyer links were asked for but the flyers plugin is not configured.
    case flyerLookupUnavailable
    /// `from=here` was asked for but no fix with a position has arrived.
    case noCurrentPosition

    /// The `from` value that stands for the current position.
    package static let hereWord = "here"

    /// True when the request itself is wrong (a 400, and exit 2 on the command line); false when it is well formed
    /// but names a flyer that does not exist, needs the flyers plugin or a current position (a 404 or 409, exit 1).
    package var isBadInput: Bool {
        switch self {
        case .unknownFlyer, .flyerLookupUnavailable, .noCurrentPosition: return false
        default: return true
        }
    }

    package var description: String {
        switch self {
        case .invalidCoordinate(let parameter, let error):
            return "\(parameter): \(error)"
        case .unknownStyle(let text):
            let allowed = MapStyle.allCases.map(\.rawValue).joined(separator: ", ")
            return "style '\(text)' is not known; expected one of: \(allowed)"
        case .unknownMode(let text):
            let allowed = (TravelMode.allCases.map(\.rawValue) + [TravelMode.showWord]).joined(separator: ", ")
            return "mode '\(text)' is not known; expected one of: \(allowed)"
        case .modeNotSupported(let mode, let style):
            guard style.canRoute else {
                return
                    "mode '\(mode.rawValue)' cannot be used with style '\(style.rawValue)', which only shows a place; use mode '\(TravelMode.showWord)' or a style that gives directions (apple, apple-legacy, google)"
            }
            let allowed = (style.travelModes.map(\.rawValue) + [TravelMode.showWord]).joined(separator: ", ")
            return
                "mode '\(mode.rawValue)' cannot be expressed by style '\(style.rawValue)'; expected one of: \(allowed)"
        case .sourceWithoutMode(let style):
            return style.canRoute
                ? "a start point ('from') needs a travel mode; give one of: \(style.travelModes.map(\.rawValue).joined(separator: ", "))"
                : "style '\(style.rawValue)' only shows a place and cannot start from 'from'; drop 'from' or use apple, apple-legacy or google"
        case .destinationNotSupported(let kind, let style):
            return
                "style '\(style.rawValue)' can only point at coordinates, not \(kind); give 'to' as LAT,LON or choose another style"
        case .empty(let parameter):
            return "'\(parameter)' must not be empty"
        case .invalidAccuracy(let text):
            return "accuracy '\(text)' is not valid; give the horizontal accuracy in metres as a number of 0 or more"
        case .missingDestination:
            return "no destination; give one of 'to' (LAT,LON), 'address', 'name' (a place to search for) or a flyer id"
        case .misplaced(let parameter, let allowedWith):
            return "'\(parameter)' can only be given with \(allowedWith)"
        case .conflictingDestinations(let names):
            return "give only one destination, not \(names.map { "'\($0)'" }.joined(separator: " and "))"
        case .unknownFlyer(let id):
            return "no flyer with id '\(id)'; list flyers with GET /v1/flyers or meridian flyers export"
        case .noCurrentPosition:
            return
                "'from=\(Self.hereWord)' needs the current position, but no fix has arrived yet; give 'from' as LAT,LON or leave it out to start where the user is"
        case .flyerLookupUnavailable:
            return "flyer links need the flyers plugin; add a consumer with 'type: flyers' to the configuration"
        }
    }
}
