import MeridianCore

extension PrivacyZones {
    /// The longest step, metres, between the points a drawn line is checked against the zones at: a simplified
    /// path's points can be hundreds of metres apart on a straight street, and a line between two of them must not
    /// cross a zone. The cut circles reach past the zones by their secret jitter, far more than this.
    static let lineCheckStep = 10.0

    /// `path` drawn as straight lines between its points, cut into the pieces outside every zone (`visiblePieces`
    /// of the path with points added every `lineCheckStep`); the whole path as one piece when there is no zone.
    package func visibleLines(_ path: [Coordinate]) -> [[Coordinate]] {
        guard !isEmpty else { return path.isEmpty ? [] : [path] }
        return visiblePieces(Self.densified(path))
    }

    /// `path` with points added along each step longer than `lineCheckStep` (straight in latitude and longitude,
    /// exact enough over a few hundred metres).
    static func densified(_ path: [Coordinate]) -> [Coordinate] {
        guard let first = path.first else { return [] }
        var dense = [first]
        dense.reserveCapacity(path.count * 4)
        for (a, b) in zip(path, path.dropFirst()) {
            let plane = LocalPlane(origin: a)
            let step = plane.project(b)
            let length = (step.x * step.x + step.y * step.y).squareRoot()
            let parts = Int((length / lineCheckStep).rounded(.up))
            if parts > 1 {
                let deltaLongitude = Geodesic.normalizedLongitude(b.longitude - a.longitude)
                for part in 1..<parts {
                    let t = Double(part) / Double(parts)
                    if let point = try? Coordinate(
                        latitude: a.latitude + (b.latitude - a.latitude) * t,
                        longitude: Geodesic.normalizedLongitude(a.longitude + deltaLongitude * t))
                    {
                        dense.append(point)
                    }
                }
            }
            dense.append(b)
        }
        return dense
    }
}
