import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MeridianCore

/// Reads the track and route points of a GPX 1.0 or 1.1 document.
///
/// Each `trkpt`/`rtept` becomes a fix: `lat`/`lon`, `ele` (taken as altitude above
/// mean sea level), `time`, GPX 1.0 `speed`/`course`, `sat`, `fix` (none/2d/3d/dgps/pps)
/// and Garmin TrackPointExtension `speed`/`course`. A point with a bad value is
/// reported with its line and skipped; a point without a time cannot be replayed and is
/// counted. Malformed XML stops the document at that line, keeping the points before it.
enum GPXReader {
    struct Result {
        var fixes: [Fix]
        var counters: [String: Int]
    }

    static func read(_ data: Data, file: String, providerID: String, onError: (TrackReadError) -> Void) -> Result {
        let parser = XMLParser(data: data)
        let delegate = GPXDelegate(file: file, providerID: providerID)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        if !parser.parse(), delegate.counters["xml_errors", default: 0] == 0 {
            delegate.reportXMLError(parser.parserError, line: parser.lineNumber)
        }
        delegate.errors.forEach(onError)
        return Result(fixes: delegate.fixes, counters: delegate.counters)
    }
}

private final class GPXDelegate: NSObject, XMLParserDelegate {
    let file: String
    let providerID: String
    var fixes: [Fix] = []
    var errors: [TrackReadError] = []
    var counters: [String: Int] = ["points": 0, "points_without_time": 0, "invalid_points": 0]

    private var point: Point?
    private var text = ""

    private struct Point {
        var line: Int
        var latitude: String?
        var longitude: String?
        var values: [String: String] = [:]
    }

    init(file: String, providerID: String) {
        self.file = file
        self.providerID = providerID
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let name = Self.localName(elementName)
        if name == "trkpt" || name == "rtept" {
            point = Point(line: parser.lineNumber, latitude: attributes["lat"], longitude: attributes["lon"])
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if point != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let name = Self.localName(elementName)
        guard var current = point else { return }
        switch name {
        case "trkpt", "rtept":
            point = nil
            finish(current)
        case "ele", "time", "speed", "course", "sat", "fix", "hdop", "vdop":
            current.values[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            point = current
        default:
            break
        }
        text = ""
    }

    /// Records malformed XML; parsing stops there, keeping the points before it.
    func reportXMLError(_ error: (any Error)?, line: Int) {
        let reason = error.map { ($0 as NSError).localizedDescription } ?? "unknown XML error"
        errors.append(TrackReadError(
            file: file, line: line,
            message: "malformed GPX (\(reason)); points from here on were not read — fix or re-export the file"))
        counters["xml_errors", default: 0] += 1
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if counters["xml_errors", default: 0] == 0 { reportXMLError(parseError, line: parser.lineNumber) }
    }

    private func finish(_ point: Point) {
        counters["points", default: 0] += 1
        do {
            guard let latitudeText = point.latitude, let longitudeText = point.longitude,
                  let latitude = Double(latitudeText), let longitude = Double(longitudeText)
            else { throw message("has no valid lat/lon attributes (lat=\(point.latitude ?? "none"), lon=\(point.longitude ?? "none"))") }
            let coordinate: Coordinate
            do { coordinate = try Coordinate(latitude: latitude, longitude: longitude) } catch { throw message("\(error)") }
            guard let timeText = point.values["time"] else {
                counters["points_without_time", default: 0] += 1
                return
            }
            guard let time = ISO8601.date(from: timeText) else {
                throw message("has time '\(timeText)', which is not an ISO 8601 date-time such as 2024-05-01T07:30:00Z")
            }
            let elevation = try number("ele", point, finite: true)
            let speed = try number("speed", point, finite: true, nonNegative: true)
            var course = try number("course", point, finite: true, nonNegative: true)
            if let value = course { course = value.truncatingRemainder(dividingBy: 360) }
            let satellites = try point.values["sat"].map { text in
                guard let value = Int(text), value >= 0 else { throw message("has sat '\(text)', expected a count") }
                return value
            }
            var mode: FixMode = elevation != nil ? .threeD : .twoD
            var quality: FixQuality?
            switch point.values["fix"] {
            case nil: break
            case "none": mode = .noFix
            case "2d": mode = .twoD
            case "3d": mode = .threeD
            case "dgps": quality = .dgps
            case "pps": quality = .pps
            case let other?: throw message("has fix '\(other)', expected none, 2d, 3d, dgps or pps")
            }
            let hasFix = mode != .noFix
            fixes.append(Fix(time: time, coordinate: hasFix ? coordinate : nil,
                             altitudeMSL: hasFix ? elevation : nil, speed: hasFix ? speed : nil,
                             course: hasFix ? course : nil, mode: mode, quality: quality,
                             satellitesUsed: satellites, providerID: providerID))
        } catch let error as TrackReadError {
            counters["invalid_points", default: 0] += 1
            errors.append(error)
        } catch {
            counters["invalid_points", default: 0] += 1
        }

        func message(_ text: String) -> TrackReadError {
            TrackReadError(file: file, line: point.line, message: "track point \(text); point skipped")
        }

        func number(_ key: String, _ point: Point, finite: Bool, nonNegative: Bool = false) throws -> Double? {
            guard let text = point.values[key] else { return nil }
            guard let value = Double(text), value.isFinite, !nonNegative || value >= 0 else {
                throw message("has \(key) '\(text)', expected a\(nonNegative ? " non-negative" : "") number")
            }
            return value
        }
    }
}
