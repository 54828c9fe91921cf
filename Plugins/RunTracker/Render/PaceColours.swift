import MeridianCore

/// The colours of a route by pace, from green (fast) to red (slow), scaled between the 5th and 95th percentile of
/// the run's moving pace per profile slice; shared by the SVG picture and the map in the browser.
package struct PaceColours: Sendable {
    /// Fast to slow.
    package static let palette = [
        "#1a9850", "#66bd63", "#a6d96a", "#d9ef8b", "#fee08b", "#fdae61", "#f46d43", "#d73027"
    ]
    /// The paces (seconds per kilometre) at either end of the scale.
    package let fast: Double
    package let slow: Double
    private let profile: Profile

    package init(profile: Profile) {
        self.profile = profile
        let paces = profile.samples.compactMap(\.pace).sorted()
        fast = paces.isEmpty ? 0 : paces[Int(Double(paces.count - 1) * 0.05)]
        slow = paces.isEmpty ? 1 : paces[Int(Double(paces.count - 1) * 0.95)]
    }

    /// The colour of the route `distance` metres from the start.
    package func colour(atDistance distance: Double) -> String {
        Self.palette[index(atDistance: distance)]
    }

    /// The palette index at `distance`: the pace of the profile slice there (the middle of the scale without one).
    package func index(atDistance distance: Double) -> Int {
        guard profile.sliceLength > 0, !profile.samples.isEmpty else { return 0 }
        let slice = min(profile.samples.count - 1, max(0, Int(distance / profile.sliceLength)))
        guard let pace = profile.samples[slice].pace, slow > fast else { return 3 }
        let t = min(1, max(0, (pace - fast) / (slow - fast)))
        return min(Self.palette.count - 1, Int(t * Double(Self.palette.count)))
    }
}

/// A route cut into stretches of one colour, and the dashed joins across pauses and signal gaps.
package struct RoutePieces: Sendable {
    /// Consecutive point indices drawn in one stroke.
    package struct Piece: Sendable, Equatable {
        package var indices: [Int]
        package var colour: String
        /// True for a join between two segments (nothing was counted there).
        package var dashed: Bool
    }

    package let pieces: [Piece]

    /// Cuts points (given by their segment and run distance, in order) by colour. Each stretch starts at the last
    /// point of the one before, so the line has no holes; segments are joined by a dashed grey piece.
    package init(segments: [Int], distances: [Double], colours: PaceColours) {
        var pieces: [Piece] = []
        var index = 0
        let count = min(segments.count, distances.count)
        while index + 1 < count {
            if segments[index] != segments[index + 1] {
                pieces.append(Piece(indices: [index, index + 1], colour: "#999999", dashed: true))
                index += 1
                continue
            }
            let colour = colours.colour(atDistance: distances[index])
            var indices = [index]
            while index + 1 < count, segments[index] == segments[index + 1],
                colours.colour(atDistance: distances[index]) == colour
            {
                index += 1
                indices.append(index)
            }
            pieces.append(Piece(indices: indices, colour: colour, dashed: false))
        }
        self.pieces = pieces
    }
}

/// Where a route crosses every kilometre (or mile): the mark's number and its place between two points.
package struct DistanceMarks: Sendable {
    /// Mark `number` lies at fraction `t` of the way from point `index - 1` to point `index`.
    package struct Mark: Sendable, Equatable {
        package var number: Int
        package var index: Int
        package var t: Double
    }

    package let marks: [Mark]

    /// Marks every `unit` metres along `distances` (the run distance at each point, in order); long routes get
    /// one every 2, 5, 10… units so that there are at most about 25.
    package init(distances: [Double], unit: Double) {
        let total = distances.last ?? 0
        let every = [1, 2, 5, 10, 20, 50].first { total / unit / Double($0) <= 25 } ?? 100
        var marks: [Mark] = []
        var mark = unit * Double(every), number = every, cursor = 0
        while mark <= total, distances.count > 1 {
            while cursor < distances.count && distances[cursor] < mark { cursor += 1 }
            guard cursor < distances.count, cursor > 0 else { break }
            let span = distances[cursor] - distances[cursor - 1]
            marks.append(Mark(number: number, index: cursor, t: span > 0 ? (mark - distances[cursor - 1]) / span : 1))
            mark += unit * Double(every)
            number += every
        }
        self.marks = marks
    }
}
