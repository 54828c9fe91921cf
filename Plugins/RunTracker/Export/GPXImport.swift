import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MeridianCore

/// Reads a GPX 1.0/1.1 track back into points: one segment per `trkseg`, elevation from `ele`, speed from
/// Garmin's TrackPointExtension (v1 or v2) `speed`. Every track point needs a valid position and time.
public struct GPXImport: Sendable {
    /// The track's name (`trk/name`, else `metadata/name`), if any.
    public var name: String?
    /// The track's `type`, when it names an activity (`run`, `walk`, …).
    public var activity: Activity?
    public var points: [TrackPoint]

    /// Parses `data`; `file` names the input in errors.
    public init(data: Data, file: String = "the GPX document") throws(GPXImportError) {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let parsed = parser.parse()
        if let problem = delegate.problem {
            throw GPXImportError(file: file, line: problem.line, message: problem.message)
        }
        guard parsed else {
            throw GPXImportError(file: file, line: parser.lineNumber,
                                 message: "not well-formed XML (\(parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"))")
        }
        guard !delegate.points.isEmpty else {
            throw GPXImportError(file: file, line: nil, message: "has no track points (trk/trkseg/trkpt); export a track, not only waypoints or routes")
        }
        name = delegate.trackName ?? delegate.metadataName
        activity = delegate.type.flatMap(Activity.init(rawValue:))
        points = delegate.points
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var points: [TrackPoint] = []
        var trackName: String?
        var metadataName: String?
        var type: String?
        var problem: (line: Int, message: String)?
        private var path: [String] = []
        private var text = ""
        private var segment = -1
        private var pending: (coordinate: Coordinate, line: Int)?
        private var time: Date?
        private var altitude: Double?
        private var speed: Double?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            path.append(local)
            text = ""
            switch local {
            case "trkseg":
                segment += 1
            case "trkpt":
                if segment < 0 { segment = 0 }
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      let coordinate = try? Coordinate(latitude: lat, longitude: lon) else {
                    fail(parser, "trkpt needs numeric lat and lon attributes in range (got lat=\(attributes["lat"] ?? "none"), lon=\(attributes["lon"] ?? "none"))")
                    return
                }
                pending = (coordinate, parser.lineNumber)
                time = nil
                altitude = nil
                speed = nil
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let local = path.popLast() ?? name
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.last
            switch (local, parent) {
            case ("name", "trk"): trackName = trackName ?? value
            case ("name", "metadata"): metadataName = value
            case ("type", "trk"): type = type ?? value
            case ("time", "trkpt"):
                guard let date = ISO8601.date(from: value) else {
                    fail(parser, "'\(value)' is not an ISO 8601 time such as 2024-05-01T07:30:00Z")
                    return
                }
                time = date
            case ("ele", "trkpt"): altitude = Double(value).flatMap { $0.isFinite ? $0 : nil }
            case ("speed", "TrackPointExtension"): speed = Double(value).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            case ("trkpt", _):
                guard let pending else { return }
                guard let time else {
                    fail(parser, "trkpt has no time; a run needs a time on every point", line: pending.line)
                    return
                }
                points.append(TrackPoint(sequence: points.count, time: time, coordinate: pending.coordinate, altitude: altitude,
                                         speed: speed, segment: segment))
                self.pending = nil
            default:
                break
            }
            text = ""
        }

        private func fail(_ parser: XMLParser, _ message: String, line: Int? = nil) {
            guard problem == nil else { return }
            problem = (line ?? parser.lineNumber, message)
            parser.abortParsing()
        }
    }
}

/// A GPX file that cannot be imported; the message names the file and line.
public struct GPXImportError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var message: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
