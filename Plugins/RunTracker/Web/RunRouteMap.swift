import MeridianCore
import MeridianWeb

/// The map of one run for the browser: the route simplified with the core's Douglas–Peucker to at most
/// `maxPoints` points (per segment, one tolerance: the smallest that fits), cut into pieces coloured by pace as in the SVG picture,
/// dashed across pauses, with start, finish and a mark every kilometre or mile.
enum RunRouteMap {
    /// At most this many route points go to the browser.
    static let maxPoints = 2000

    /// The map of `points`, leaving out what `cut` hides (and then the distance marks).
    static func view(
        points: [TrackPoint], profile: Profile, units: UnitSystem, maxPoints: Int = maxPoints, cut: PrivacyCut? = nil
    ) -> MapView {
        let usable = RunProgress.usable(cut?.visible(points, keepDistances: true) ?? points)
        let coordinates = usable.compactMap(\.coordinate)
        guard coordinates.count == usable.count, let first = coordinates.first, let last = coordinates.last else {
            return MapView()
        }
        let distances = usable.map { $0.distance ?? 0 }
        // One list of global indices per segment, simplified within each segment.
        var segments: [[Int]] = []
        for index in usable.indices {
            if index == 0 || usable[index].segment != usable[index - 1].segment { segments.append([]) }
            segments[segments.count - 1].append(index)
        }
        let kept = Geodesic.wgs84.simplifiedIndices(
            ofSegments: segments.map { $0.map { coordinates[$0] } }, maxPoints: maxPoints
        ).kept
        let route = zip(segments, kept).flatMap { segment, local in local.map { segment[$0] } }
        let colours = PaceColours(profile: profile)
        let pieces = RoutePieces(
            segments: route.map { usable[$0].segment }, distances: route.map { distances[$0] }, colours: colours)
        let lines = pieces.pieces.map { piece in
            MapView.Line(
                points: piece.indices.map { coordinates[route[$0]] }, colour: piece.colour, dashed: piece.dashed)
        }
        let unitName = units == .metric ? "km" : "mi"
        let every = units == .metric ? 1000 : UnitSystem.metresPerMile
        let marks = (cut?.marksDistances ?? true ? DistanceMarks(distances: distances, unit: every).marks : [])
            .compactMap { mark in
                let a = coordinates[mark.index - 1], b = coordinates[mark.index]
                let point = try? Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * mark.t,
                    longitude: Geodesic.normalizedLongitude(
                        a.longitude + Geodesic.normalizedLongitude(b.longitude - a.longitude) * mark.t))
                return point.map {
                    MapView.Marker($0, kind: .mark, label: "\(mark.number)", title: "\(mark.number) \(unitName)")
                }
            }
        let ends = [
            MapView.Marker(first, kind: .start, title: "Start"), MapView.Marker(last, kind: .finish, title: "Finish")
        ]
        return MapView(lines: lines, markers: marks + ends)
    }
}
