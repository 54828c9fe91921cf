import MeridianCore

/// One split of a run: the stretch between two distance marks (every kilometre or every mile).
package struct RunSplit: Sendable, Equatable, Codable {
    /// 1-based split number.
    package var index: Int
    /// Length of the split, metres (the unit, or less for the final partial split).
    package var distance: Double
    /// Elapsed seconds over the split, from the interpolated crossing of one mark to the next.
    package var elapsedTime: Double
    /// Timer seconds over the split: the elapsed time less the pauses in it.
    package var timerTime: Double
    /// Timer seconds per kilometre over the split.
    package var pace: Double
    /// Seconds since the run's start at which the split starts.
    package var startOffset: Double
    /// True for the final split when it is shorter than the unit.
    package var partial: Bool
    /// Time-weighted average heart rate over the split, beats per minute; `nil` without heart rate.
    @NullWhenAbsent package var averageHeartRate: Double?

    enum CodingKeys: String, CodingKey {
        case index
        case distance = "distanceM"
        case elapsedTime = "elapsedS"
        case timerTime = "timerS"
        case pace = "paceSPerKm"
        case startOffset = "startOffsetS"
        case partial
        case averageHeartRate = "avgHeartRateBpm"
    }
}

/// The splits of a run for one unit, with the fastest and slowest full split.
package struct SplitTable: Sendable, Equatable, Codable {
    /// "km" or "mile".
    package var unit: String
    /// Metres per split.
    package var unitDistance: Double
    package var splits: [RunSplit]
    /// 1-based index of the fastest and the slowest full split (`nil` without full splits).
    @NullWhenAbsent package var fastest: Int?
    @NullWhenAbsent package var slowest: Int?

    enum CodingKeys: String, CodingKey {
        case unit
        case unitDistance = "unitDistanceM"
        case splits, fastest, slowest
    }
}

extension RunProgress {
    /// Splits every `unitDistance` metres, starting at the first accepted point. The moment a mark is
    /// crossed is interpolated between the two samples around it, not taken from the nearest sample.
    /// A final partial split covers whatever follows the last full mark.
    package func splits(every unitDistance: Double, unit: String) -> SplitTable {
        var splits: [RunSplit] = []
        guard let firstTime = times.first, unitDistance > 0 else {
            return SplitTable(unit: unit, unitDistance: unitDistance, splits: [], fastest: nil, slowest: nil)
        }
        var cursor = 0
        var previousTime = firstTime
        var previousMark = 0.0
        var mark = unitDistance
        while let time = timeReaching(mark, from: &cursor) {
            splits.append(
                split(
                    index: splits.count + 1, distance: mark - previousMark, from: previousTime, to: time, partial: false
                ))
            previousTime = time
            previousMark = mark
            mark = unitDistance * Double(splits.count + 1)
        }
        let remaining = totalDistance - previousMark
        if let lastTime = times.last, remaining > 0.5 {
            splits.append(
                split(index: splits.count + 1, distance: remaining, from: previousTime, to: lastTime, partial: true))
        }
        let full = splits.filter { !$0.partial }
        return SplitTable(
            unit: unit, unitDistance: unitDistance, splits: splits,
            fastest: full.min { $0.timerTime < $1.timerTime }?.index,
            slowest: full.max { $0.timerTime < $1.timerTime }?.index)
    }

    /// Kilometre and mile splits.
    package var standardSplits: [SplitTable] {
        [splits(every: 1000, unit: "km"), splits(every: UnitSystem.metresPerMile, unit: "mile")]
    }

    private func split(index: Int, distance: Double, from start: Double, to end: Double, partial: Bool) -> RunSplit {
        let elapsed = end - start
        let timer = max(0, elapsed - pausedTime(from: start, to: end))
        return RunSplit(
            index: index, distance: distance, elapsedTime: elapsed, timerTime: timer, pace: timer / distance * 1000,
            startOffset: start, partial: partial)
    }
}
