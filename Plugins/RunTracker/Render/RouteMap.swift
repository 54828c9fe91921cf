import MeridianCore

/// A route drawn to scale in a local plane, with no map tiles: coloured by pace, dashed across pauses, start and
/// finish markers, a mark every kilometre or mile, a scale bar and a pace legend (speed for a ride).
struct RouteMap {
    private let usable: [TrackPoint]
    private let distances: [Double]
    private let projected: [(x: Double, y: Double)]
    private let minX: Double, maxY: Double, spanX: Double, spanY: Double
    private let scale: Double
    private let colours: PaceColours
    private let units: UnitSystem
    /// The run's activity: the legend gives a ride's speeds, everything else's paces.
    private let activity: Activity
    /// Drawing width and the frame's height.
    let width: Double
    let height: Double
    /// The tracker's distance at the last route point, metres.
    let totalDistance: Double
    /// Whether the map marks every kilometre or mile (not once a privacy zone cut the route).
    private let marksDistances: Bool

    /// Space kept free above and below the route.
    private static let padding = 24.0

    /// The map of `points`, leaving out what `cut` hides (the whole route without one).
    init(
        points: [TrackPoint], profile: Profile, activity: Activity, units: UnitSystem, width: Double,
        cut: PrivacyCut? = nil
    ) {
        usable = RunProgress.usable(cut?.visible(points, keepDistances: true) ?? points)
        marksDistances = cut?.marksDistances ?? true
        distances = usable.map { $0.distance ?? 0 }
        totalDistance = RunProgress(points: points, start: points.first?.time ?? .distantPast).totalDistance
        colours = PaceColours(profile: profile)
        self.units = units
        self.activity = activity
        self.width = width
        // Projection: a local plane at the route's centre, one scale for both axes.
        let coordinates = usable.compactMap(\.coordinate)
        let plane = coordinates.isEmpty ? nil : LocalPlane(origin: Self.centre(of: coordinates))
        projected = coordinates.map { plane?.project($0) ?? (x: 0, y: 0) }
        minX = projected.map(\.x).min() ?? 0
        let maxX = projected.map(\.x).max() ?? 1
        let minY = projected.map(\.y).min() ?? 0
        maxY = projected.map(\.y).max() ?? 1
        spanX = max(maxX - minX, 1)
        spanY = max(maxY - minY, 1)
        height = min(max(width * spanY / spanX, 260), width + 2 * Self.padding)
        scale = min(width / spanX, (height - 2 * Self.padding) / spanY)
    }

    /// The drawing, with its left edge at `x` and the frame's top at `y`.
    func draw(x: Double, y: Double) -> String {
        let offsetX = x + (width - spanX * scale) / 2
        let offsetY = y + Self.padding + (height - 2 * Self.padding - spanY * scale) / 2
        func point(_ index: Int) -> (Double, Double) {
            (offsetX + (projected[index].x - minX) * scale, offsetY + (maxY - projected[index].y) * scale)
        }
        var svg = ""
        for piece in RoutePieces(segments: usable.map(\.segment), distances: distances, colours: colours).pieces {
            let line = piece.indices.map { point($0) }.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
            svg +=
                piece.dashed
                ? "<polyline fill=\"none\" stroke=\"\(piece.colour)\" stroke-width=\"2\" stroke-dasharray=\"4 4\" points=\"\(line)\"/>\n"
                : "<polyline fill=\"none\" stroke=\"\(piece.colour)\" stroke-width=\"4\" stroke-linecap=\"round\" stroke-linejoin=\"round\" points=\"\(line)\"/>\n"
        }
        let marks = DistanceMarks(distances: distances, unit: units == .metric ? 1000 : UnitSystem.metresPerMile).marks
        for mark in marksDistances ? marks : [] {
            let a = point(mark.index - 1), b = point(mark.index)
            let markX = a.0 + (b.0 - a.0) * mark.t, markY = a.1 + (b.1 - a.1) * mark.t
            svg +=
                "<circle cx=\"\(f(markX))\" cy=\"\(f(markY))\" r=\"8\" fill=\"#fff\" stroke=\"#333\" stroke-width=\"1.5\"/>"
            svg +=
                "<text x=\"\(f(markX))\" y=\"\(f(markY + 3.5))\" font-size=\"9\" text-anchor=\"middle\" fill=\"#222\">\(mark.number)</text>\n"
        }
        // Start and finish (one label when they coincide, as on a loop).
        if let last = projected.indices.last {
            let (fx, fy) = point(last)
            svg +=
                "<rect x=\"\(f(fx - 7))\" y=\"\(f(fy - 7))\" width=\"14\" height=\"14\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"2\"/>"
            let (sx, sy) = point(0)
            let together = abs(fx - sx) < 16 && abs(fy - sy) < 16
            svg +=
                "<text x=\"\(f(fx + 11))\" y=\"\(f(fy + (together ? 14 : 4)))\" font-size=\"11\" fill=\"#222\">Finish</text>\n"
            svg +=
                "<circle cx=\"\(f(sx - (together ? 9 : 0)))\" cy=\"\(f(sy))\" r=\"8\" fill=\"#1a9850\" stroke=\"#fff\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(sx + 11))\" y=\"\(f(sy - 6))\" font-size=\"11\" fill=\"#1a9850\">Start</text>\n"
        } else {
            svg +=
                "<text x=\"\(f(x + width / 2))\" y=\"\(f(y + height / 2))\" font-size=\"14\" text-anchor=\"middle\" fill=\"#888\">No GPS positions recorded</text>\n"
        }
        svg += ScaleBar.svg(x: x, y: y + height - 14, metresPerPixel: scale > 0 ? 1 / scale : 0, units: units)
        svg += legend(x: x + width - 190, y: y + height - 26)
        return svg
    }

    private func legend(x: Double, y: Double) -> String {
        var svg = "<g font-size=\"10\" fill=\"#333\">"
        for (index, colour) in PaceColours.palette.enumerated() {
            svg +=
                "<rect x=\"\(f(x + Double(index) * 14))\" y=\"\(f(y))\" width=\"14\" height=\"8\" fill=\"\(colour)\"/>"
        }
        let fast = PaceOrSpeed.text(secondsPerKilometre: colours.fast, activity: activity, units: units)
        let slow = PaceOrSpeed.text(secondsPerKilometre: colours.slow, activity: activity, units: units)
        svg += "<text x=\"\(f(x))\" y=\"\(f(y + 20))\">\(fast)</text>"
        svg += "<text x=\"\(f(x + 112))\" y=\"\(f(y + 20))\" text-anchor=\"end\">\(slow)</text>"
        svg += "<text x=\"\(f(x + 120))\" y=\"\(f(y + 8))\">\(PaceOrSpeed.label(activity))</text></g>\n"
        return svg
    }

    /// The middle of the route's latitude and longitude extent (longitudes unwrapped around the first point).
    static func centre(of coordinates: [Coordinate]) -> Coordinate {
        let reference = coordinates[0].longitude
        let longitudes = coordinates.map { reference + Geodesic.normalizedLongitude($0.longitude - reference) }
        let latitudes = coordinates.map(\.latitude)
        let latitude = ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2
        let longitude = Geodesic.normalizedLongitude(((longitudes.min() ?? 0) + (longitudes.max() ?? 0)) / 2)
        return (try? Coordinate(latitude: latitude, longitude: longitude)) ?? coordinates[0]
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
