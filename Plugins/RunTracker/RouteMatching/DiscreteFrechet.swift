import MeridianCore

/// The discrete Fréchet distance between two polylines, as a decision: can two walkers, one on each, go from the
/// first points to the last, each step advancing one or both by a vertex, and always stay within `limit` metres?
/// It is symmetric and respects direction (a loop run the other way round is far).
enum DiscreteFrechet {
    /// Whether the discrete Fréchet distance between `p` and `q` is at most `limit` metres (exactly on WGS84, see
    /// `NearnessTest`). Only cells next to reachable ones are evaluated (a band along the diagonal for similar
    /// paths), and a row without a reachable cell ends the search, so dissimilar paths are rejected early.
    static func within(_ p: [Coordinate], _ q: [Coordinate], limit: Double) -> Bool {
        guard let pFirst = p.first, let qFirst = q.first, let pLast = p.last, let qLast = q.last else { return false }
        let test = NearnessTest(limit: limit)
        guard test.isNear(pFirst, qFirst), test.isNear(pLast, qLast) else { return false }
        let m = q.count
        var previous = [Bool](repeating: false, count: m)
        var current = [Bool](repeating: false, count: m)
        // Row 0: the walker on p waits at its first point while the other advances.
        var previousLow = 0, previousHigh = 0
        previous[0] = true
        while previousHigh + 1 < m, test.isNear(pFirst, q[previousHigh + 1]) {
            previousHigh += 1
            previous[previousHigh] = true
        }
        for row in 1..<p.count {
            var low = -1, high = -1
            var column = previousLow
            while column < m {
                let fromBelow = column <= previousHigh && previous[column]
                let fromDiagonal = column > previousLow && column - 1 <= previousHigh && previous[column - 1]
                let fromLeft = column > 0 && high == column - 1
                if fromBelow || fromDiagonal || fromLeft {
                    if test.isNear(p[row], q[column]) {
                        current[column] = true
                        if low < 0 { low = column }
                        high = column
                    }
                } else if column > previousHigh + 1 {
                    break
                }
                column += 1
            }
            guard low >= 0 else { return false }
            for index in previousLow...previousHigh { previous[index] = false }
            swap(&previous, &current)
            previousLow = low
            previousHigh = high
        }
        return previousHigh == m - 1 && previous[m - 1]
    }

    /// `path` with points inserted along every edge longer than `spacing` metres (`FlatDistance.point`), so that the discrete
    /// distance between two densified paths is within `spacing` of the continuous one.
    static func densified(_ path: [Coordinate], spacing: Double) -> [Coordinate] {
        guard var previous = path.first else { return [] }
        var result = [previous]
        result.reserveCapacity(path.count * 2)
        for next in path.dropFirst() {
            let pieces = Int((FlatDistance.metres(previous, next) / spacing).rounded(.up))
            for piece in stride(from: 1, to: pieces, by: 1) {
                if let point = FlatDistance.point(
                    between: previous, and: next, fraction: Double(piece) / Double(pieces))
                {
                    result.append(point)
                }
            }
            result.append(next)
            previous = next
        }
        return result
    }
}
