/// Problems with a stats, comparison, route or segment request; each message names the input and says what to do.
package enum ProgressError: Error, CustomStringConvertible, Equatable {
    /// No route has this id (or none of its runs is saved any more).
    case routeNotFound(id: String)
    /// No segment has this id or name.
    case segmentNotFound(id: String)
    /// A segment with this name exists already.
    case segmentExists(name: String)
    /// A field of the request is not acceptable.
    case invalid(field: String, message: String)

    package var description: String {
        switch self {
        case .routeNotFound(let id):
            return "no route with id '\(id)'; list routes with `meridian runs routes` or GET /v1/routes"
        case .segmentNotFound(let id):
            return
                "no segment with id or name '\(id)'; list segments with `meridian runs segments list` or GET /v1/segments"
        case .segmentExists(let name):
            return "a segment named '\(name)' exists already; choose another name or delete it first"
        case .invalid(let field, let message):
            return "\(field): \(message)"
        }
    }
}
