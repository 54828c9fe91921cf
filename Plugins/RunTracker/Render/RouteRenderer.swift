import Foundation
import MeridianCore

/// Draws a run as a self-contained SVG: the route to scale (no map tiles), coloured by pace from green (fast)
/// to red (slow), with start and finish markers, a mark every kilometre or mile, a scale bar and a legend,
/// and below it the elevation (grey area) and pace (blue line) along the distance.
public struct RouteRenderer: Sendable {
    public static let defaultWidth = 800
    public var units: UnitSystem
    public var width: Int

    public init(units: UnitSystem, width: Int = RouteRenderer.defaultWidth) {
        self.units = units
        self.width = max(320, width)
    }

    private static let margin = 24.0
    private static let headerHeight = 56.0
    private static let profileHeight = 170.0
    private static let colours = ["#1a9850", "#66bd63", "#a6d96a", "#d9ef8b", "#fee08b", "#fdae61", "#f46d43", "#d73027"]

    public func svg(run: RunSummary, points: [TrackPoint]) -> String {
        let usable = RunProgress.usable(points)
        let progress = RunProgress(points: points, start: run.startedAt)
        // The run's distance at each route point, for pace colours and distance marks.
        let routeDistances = usable.map { $0.distance ?? 0 }
        let profile = Profile(points: points)
        let W = Double(width)
        let m: Double = Self.margin

        // Projection: a local plane at the route's centre, one scale for both axes.
        let coordinates = usable.compactMap(\.coordinate)
        let centre = coordinates.isEmpty ? nil : Self.centre(of: coordinates)
        let plane = centre.map { LocalPlane(origin: $0) }
        let projected: [(x: Double, y: Double)] = coordinates.map { plane?.project($0) ?? (x: 0, y: 0) }
        let minX = projected.map(\.x).min() ?? 0, maxX = projected.map(\.x).max() ?? 1
        let minY = projected.map(\.y).min() ?? 0, maxY = projected.map(\.y).max() ?? 1
        let spanX = max(maxX - minX, 1), spanY = max(maxY - minY, 1)
        let mapWidth = W - 2 * m
        let mapHeight = min(max(mapWidth * spanY / spanX, 260), W)
        let scale = min(mapWidth / spanX, (mapHeight - 2 * m) / spanY)
        let offsetX = m + (mapWidth - spanX * scale) / 2
        let top = Self.headerHeight
        let offsetY = top + m + (mapHeight - 2 * m - spanY * scale) / 2
        func point(_ index: Int) -> (Double, Double) {
            (offsetX + (projected[index].x - minX) * scale, offsetY + (maxY - projected[index].y) * scale)
        }
        let height = top + mapHeight + Self.profileHeight + m

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(Int(height))" viewBox="0 0 \(width) \(Int(height))" font-family="sans-serif">
            <rect width="100%" height="100%" fill="#f7f7f4"/>
            <rect x="\(f(m / 2))" y="\(f(top))" width="\(f(W - m))" height="\(f(mapHeight))" rx="6" fill="#ffffff" stroke="#d8d8d0"/>
            <text x="\(f(m))" y="26" font-size="18" font-weight="bold" fill="#222">\(XMLText.escape(run.name))</text>
            <text x="\(f(m))" y="46" font-size="13" fill="#555">\(XMLText.escape(headline(run)))</text>

            """

        // Pace colours per profile slice (moving pace), scaled between the 5th and 95th percentile.
        let paces = profile.samples.compactMap(\.pace).sorted()
        let fast = paces.isEmpty ? 0 : paces[Int(Double(paces.count - 1) * 0.05)]
        let slow = paces.isEmpty ? 1 : paces[Int(Double(paces.count - 1) * 0.95)]
        func colour(atDistance distance: Double) -> String {
            guard profile.sliceLength > 0, !profile.samples.isEmpty else { return Self.colours[0] }
            let slice = min(profile.samples.count - 1, max(0, Int(distance / profile.sliceLength)))
            guard let pace = profile.samples[slice].pace, slow > fast else { return Self.colours[3] }
            let t = min(1, max(0, (pace - fast) / (slow - fast)))
            return Self.colours[min(Self.colours.count - 1, Int(t * Double(Self.colours.count)))]
        }

        // The route: polylines of one colour; dashed grey across pauses and gaps.
        var index = 0
        while index + 1 < usable.count {
            if usable[index].segment != usable[index + 1].segment {
                let (x1, y1) = point(index), (x2, y2) = point(index + 1)
                svg += "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"#999\" stroke-width=\"2\" stroke-dasharray=\"4 4\"/>\n"
                index += 1
                continue
            }
            let stroke = colour(atDistance: routeDistances[index])
            var line = [point(index)]
            while index + 1 < usable.count, usable[index].segment == usable[index + 1].segment,
                  colour(atDistance: routeDistances[index]) == stroke {
                index += 1
                line.append(point(index))
            }
            svg += "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"4\" stroke-linecap=\"round\" stroke-linejoin=\"round\" points=\"\(line.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))\"/>\n"
        }

        // Marks every kilometre or mile, at the interpolated crossing.
        let unit = units == .metric ? 1000.0 : UnitSystem.metresPerMile
        // At most about 25 marks: long runs get one every 2, 5 or 10 units.
        let markEvery = [1, 2, 5, 10, 20, 50].first { progress.totalDistance / unit / Double($0) <= 25 } ?? 100
        var mark = unit * Double(markEvery), number = markEvery, cursor = 0
        while mark <= progress.totalDistance, usable.count > 1 {
            while cursor < routeDistances.count && routeDistances[cursor] < mark { cursor += 1 }
            guard cursor < routeDistances.count, cursor > 0 else { break }
            let a = point(cursor - 1), b = point(cursor)
            let span = routeDistances[cursor] - routeDistances[cursor - 1]
            let t = span > 0 ? (mark - routeDistances[cursor - 1]) / span : 1
            let x = a.0 + (b.0 - a.0) * t, y = a.1 + (b.1 - a.1) * t
            svg += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"8\" fill=\"#fff\" stroke=\"#333\" stroke-width=\"1.5\"/>"
            svg += "<text x=\"\(f(x))\" y=\"\(f(y + 3.5))\" font-size=\"9\" text-anchor=\"middle\" fill=\"#222\">\(number)</text>\n"
            mark += unit * Double(markEvery)
            number += markEvery
        }

        // Start and finish (one label when they coincide, as on a loop).
        if let last = projected.indices.last {
            let (fx, fy) = point(last)
            svg += "<rect x=\"\(f(fx - 7))\" y=\"\(f(fy - 7))\" width=\"14\" height=\"14\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"2\"/>"
            let (sx, sy) = point(0)
            let together = abs(fx - sx) < 16 && abs(fy - sy) < 16
            svg += "<text x=\"\(f(fx + 11))\" y=\"\(f(fy + (together ? 14 : 4)))\" font-size=\"11\" fill=\"#222\">Finish</text>\n"
            svg += "<circle cx=\"\(f(sx - (together ? 9 : 0)))\" cy=\"\(f(sy))\" r=\"8\" fill=\"#1a9850\" stroke=\"#fff\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(sx + 11))\" y=\"\(f(sy - 6))\" font-size=\"11\" fill=\"#1a9850\">Start</text>\n"
        } else {
            svg += "<text x=\"\(f(W / 2))\" y=\"\(f(top + mapHeight / 2))\" font-size=\"14\" text-anchor=\"middle\" fill=\"#888\">No GPS positions recorded</text>\n"
        }

        svg += scaleBar(x: m, y: top + mapHeight - 14, metresPerPixel: scale > 0 ? 1 / scale : 0)
        svg += legend(x: W - m - 190, y: top + mapHeight - 26, fast: fast, slow: slow)
        svg += profileChart(profile, x: m, y: top + mapHeight + 18, width: W - 2 * m, height: Self.profileHeight - 36,
                            total: progress.totalDistance, unit: unit)
        svg += "</svg>\n"
        return svg
    }

    private func headline(_ run: RunSummary) -> String {
        let date = ISO8601.string(from: run.startedAt).prefix(16).replacingOccurrences(of: "T", with: " ")
        let pace = run.averagePace.map { TimeFormat.pace(secondsPerKilometre: $0, units: units) } ?? TimeFormat.pace(secondsPerKilometre: .infinity, units: units)
        return "\(date) UTC · \(DistanceFormat.string(metres: run.distance, units: units)) · \(TimeFormat.duration(seconds: run.elapsedTime)) · \(pace) · ↑\(Int(run.ascent.rounded())) m"
    }

    private func scaleBar(x: Double, y: Double, metresPerPixel: Double) -> String {
        guard metresPerPixel > 0 else { return "" }
        let target = 120 * metresPerPixel
        let steps: [Double] = units == .metric
            ? [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
            : [50, 100, 200, 500, 1000, 2640, 5280, 10_560, 26_400, 52_800].map { $0 * UnitSystem.metresPerFoot }
        let length = steps.last { $0 <= target } ?? steps[0]
        let pixels = length / metresPerPixel
        return """
            <g stroke="#333" stroke-width="2"><line x1="\(f(x))" y1="\(f(y))" x2="\(f(x + pixels))" y2="\(f(y))"/>\
            <line x1="\(f(x))" y1="\(f(y - 5))" x2="\(f(x))" y2="\(f(y + 1))"/><line x1="\(f(x + pixels))" y1="\(f(y - 5))" x2="\(f(x + pixels))" y2="\(f(y + 1))"/></g>\
            <text x="\(f(x + pixels + 6))" y="\(f(y + 4))" font-size="11" fill="#333">\(DistanceFormat.string(metres: length, units: units))</text>

            """
    }

    private func legend(x: Double, y: Double, fast: Double, slow: Double) -> String {
        var svg = "<g font-size=\"10\" fill=\"#333\">"
        for (index, colour) in Self.colours.enumerated() {
            svg += "<rect x=\"\(f(x + Double(index) * 14))\" y=\"\(f(y))\" width=\"14\" height=\"8\" fill=\"\(colour)\"/>"
        }
        svg += "<text x=\"\(f(x))\" y=\"\(f(y + 20))\">\(TimeFormat.pace(secondsPerKilometre: fast, units: units))</text>"
        svg += "<text x=\"\(f(x + 112))\" y=\"\(f(y + 20))\" text-anchor=\"end\">\(TimeFormat.pace(secondsPerKilometre: slow, units: units))</text>"
        svg += "<text x=\"\(f(x + 120))\" y=\"\(f(y + 8))\">pace</text></g>\n"
        return svg
    }

    private func profileChart(_ profile: Profile, x: Double, y: Double, width: Double, height: Double,
                              total: Double, unit: Double) -> String {
        var svg = "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(width))\" height=\"\(f(height))\" fill=\"#fff\" stroke=\"#d8d8d0\"/>\n"
        guard total > 0, !profile.samples.isEmpty else { return svg }
        func px(_ distance: Double) -> Double { x + distance / total * width }
        if let low = profile.minAltitude, let high = profile.maxAltitude {
            let range = max(high - low, 10)
            let points = profile.samples.compactMap { sample in
                sample.altitude.map { "\(f(px(sample.distance))),\(f(y + height - ($0 - low) / range * (height - 12) - 4))" }
            }
            if !points.isEmpty {
                svg += "<polygon fill=\"#c9c9c0\" points=\"\(f(x)),\(f(y + height)) \(points.joined(separator: " ")) \(f(x + width)),\(f(y + height))\"/>\n"
            }
            svg += "<text x=\"\(f(x + 4))\" y=\"\(f(y + 12))\" font-size=\"10\" fill=\"#666\">elevation \(Int(low.rounded()))–\(Int(high.rounded())) m</text>\n"
        }
        let paces = profile.samples.compactMap(\.pace).sorted()
        if paces.count > 1 {
            let fast = paces[Int(Double(paces.count - 1) * 0.02)], slow = paces[Int(Double(paces.count - 1) * 0.98)]
            let range = max(slow - fast, 1)
            // Fast is drawn high: the line reads like speed.
            let points = profile.samples.compactMap { sample in
                sample.pace.map { "\(f(px(sample.distance))),\(f(y + 6 + (min(max($0, fast), slow) - fast) / range * (height - 12)))" }
            }
            svg += "<polyline fill=\"none\" stroke=\"#2166ac\" stroke-width=\"1.8\" points=\"\(points.joined(separator: " "))\"/>\n"
            svg += "<text x=\"\(f(x + width - 4))\" y=\"\(f(y + 12))\" font-size=\"10\" fill=\"#2166ac\" text-anchor=\"end\">pace \(TimeFormat.pace(secondsPerKilometre: fast, units: units)) – \(TimeFormat.pace(secondsPerKilometre: slow, units: units))</text>\n"
        }
        var mark = unit
        let every = max(1, Int((total / unit / 10).rounded(.up)))
        var number = 1
        while mark <= total {
            if number % every == 0 {
                svg += "<line x1=\"\(f(px(mark)))\" y1=\"\(f(y + height))\" x2=\"\(f(px(mark)))\" y2=\"\(f(y + height + 4))\" stroke=\"#666\"/>"
                svg += "<text x=\"\(f(px(mark)))\" y=\"\(f(y + height + 15))\" font-size=\"10\" text-anchor=\"middle\" fill=\"#666\">\(number) \(units == .metric ? "km" : "mi")</text>\n"
            }
            mark += unit
            number += 1
        }
        return svg
    }

    /// The middle of the route's latitude and longitude extent (longitudes unwrapped around the first point).
    private static func centre(of coordinates: [Coordinate]) -> Coordinate {
        let reference = coordinates[0].longitude
        let longitudes = coordinates.map { reference + Geodesic.normalizedLongitude($0.longitude - reference) }
        let latitudes = coordinates.map(\.latitude)
        let latitude = ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2
        let longitude = Geodesic.normalizedLongitude(((longitudes.min() ?? 0) + (longitudes.max() ?? 0)) / 2)
        return (try? Coordinate(latitude: latitude, longitude: longitude)) ?? coordinates[0]
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
