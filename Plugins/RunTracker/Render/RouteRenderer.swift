import Foundation
import MeridianCore

/// Draws a run as a self-contained SVG: the route to scale (no map tiles), coloured by pace from green (fast)
/// to red (slow), with start and finish markers, a mark every kilometre or mile, a scale bar and a legend,
/// and below it the elevation (grey area) and pace (blue line) along the distance.
package struct RouteRenderer: Sendable {
    package static let defaultWidth = 800
    package var units: UnitSystem
    package var width: Int

    package init(units: UnitSystem, width: Int = RouteRenderer.defaultWidth) {
        self.units = units
        self.width = max(320, width)
    }

    private static let margin = 24.0
    private static let headerHeight = 56.0
    private static let profileHeight = 170.0

    /// The picture; the map leaves out what `privacy` hides (the header and the charts are the whole route's, or
    /// the visible stretch's when the run starts or ends in a zone: `PrivacyTrim`).
    package func svg(run: RunSummary, points: [TrackPoint], privacy: PrivacyZones = .none) -> String {
        let (run, points, _, cut) = PrivacyTrim.visibleStretch(
            run: run, points: points, laps: [], cut: privacy.cut(points))
        let profile = Profile(points: points)
        let fullWidth = Double(width)
        let m: Double = Self.margin
        let map = RouteMap(
            points: points, profile: profile, activity: run.activity, units: units, width: fullWidth - 2 * m, cut: cut)
        let top = Self.headerHeight
        let height = top + map.height + Self.profileHeight + m
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(Int(height))" viewBox="0 0 \(width) \(Int(height))" font-family="sans-serif">
            <rect width="100%" height="100%" fill="#f7f7f4"/>
            <rect x="\(f(m / 2))" y="\(f(top))" width="\(f(fullWidth - m))" height="\(f(map.height))" rx="6" fill="#ffffff" stroke="#d8d8d0"/>
            <text x="\(f(m))" y="26" font-size="18" font-weight="bold" fill="#222">\(XMLText.escape(run.name))</text>
            <text x="\(f(m))" y="46" font-size="13" fill="#555">\(XMLText.escape(headline(run)))</text>

            """
        svg += map.draw(x: m, y: top)
        let chart = DistanceChart(total: map.totalDistance, units: units)
        svg += chart.draw(
            [
                DistanceChart.elevation(profile, units: units),
                DistanceChart.pace(profile, activity: run.activity, units: units)
            ].compactMap { $0 },
            x: m, y: top + map.height + 18, width: fullWidth - 2 * m, height: Self.profileHeight - 36)
        svg += "</svg>\n"
        return svg
    }

    /// The route alone (to scale, coloured by pace, marks, scale bar and legend) as an SVG that fills the width of
    /// its container: the map of the run page when the browser draws none. It leaves out what `privacy` hides.
    package func mapSVG(points: [TrackPoint], profile: Profile, activity: Activity, privacy: PrivacyZones = .none)
        -> String
    {
        let map = RouteMap(
            points: points, profile: profile, activity: activity, units: units, width: Double(width) - 2 * Self.margin,
            cut: privacy.cut(points))
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(Int(map.height))" font-family="sans-serif" role="img">\
            <title>The route, coloured by pace</title><rect width="100%" height="100%" fill="#f3f5ef"/>
            \(map.draw(x: Self.margin, y: 0))</svg>

            """
    }

    /// Start (UTC), distance, elapsed time, average pace (a ride's speed) and ascent, in the configured units.
    func headline(_ run: RunSummary) -> String {
        let date = ISO8601.string(from: run.startedAt).prefix(16).replacingOccurrences(of: "T", with: " ")
        let pace = PaceOrSpeed.text(secondsPerKilometre: run.averagePace, activity: run.activity, units: units)
        return
            "\(date) UTC · \(DistanceFormat.string(metres: run.distance, units: units)) · \(TimeFormat.duration(seconds: run.elapsedTime)) · \(pace) · ↑\(ElevationText.string(metres: run.ascent, units: units))"
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
