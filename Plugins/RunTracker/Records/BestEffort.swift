/// The fastest stretch of a run over a given distance, or for `longest` the whole run.
package struct BestEffort: Sendable, Equatable, Codable {
    package var distance: RecordDistance
    /// Elapsed seconds from the effort's start to its end (pauses included, as Strava counts them).
    package var elapsedTime: Double
    /// Seconds from the run's start to the effort's start.
    package var startOffset: Double
    /// The effort's distance in metres: the record distance, or the run's distance for `longest` (not in the JSON,
    /// which has the run's distance beside).
    package var distanceMetres: Double

    package init(distance: RecordDistance, elapsedTime: Double, startOffset: Double, distanceMetres: Double? = nil) {
        self.distance = distance
        self.elapsedTime = elapsedTime
        self.startOffset = startOffset
        self.distanceMetres = distanceMetres ?? distance.metres
    }

    // camelCase raw values: MeridianJSON converts them to `elapsed_s` and `start_offset_s`, like every duration.
    enum CodingKeys: String, CodingKey {
        case distance
        case elapsedTime = "elapsedS"
        case startOffset = "startOffsetS"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            distance: try container.decode(RecordDistance.self, forKey: .distance),
            elapsedTime: try container.decode(Double.self, forKey: .elapsedTime),
            startOffset: try container.decode(Double.self, forKey: .startOffset))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distance, forKey: .distance)
        try container.encode(elapsedTime, forKey: .elapsedTime)
        try container.encode(startOffset, forKey: .startOffset)
    }
}

extension RunProgress {
    /// The best effort over every distance in `distances` the run covers (by default the running distances).
    package func bestEfforts(_ distances: [RecordDistance] = RecordDistance.kept(for: .run)) -> [BestEffort] {
        distances.compactMap { bestEffort(over: $0) }
    }

    /// The best efforts of the records kept for `activity`, without those faster than the activity allows
    /// (`BestEffort.isPlausible(for:)`): they keep a ride or a car trip given as a run out of the records.
    package func bestEfforts(for activity: Activity) -> [BestEffort] {
        bestEfforts(RecordDistance.kept(for: activity)).filter { $0.isPlausible(for: activity) }
    }

    /// The fastest elapsed time over `distance`, with both ends interpolated between samples (for `longest`: the
    /// whole run, from its first sample to its last).
    ///
    /// Time as a function of distance is piecewise linear, so the fastest window starts or ends on a
    /// sample. Two O(n) two-pointer sweeps check both cases: every sample as the end (start interpolated
    /// at the latest moment the runner was at `end - D`) and every sample as the start (end interpolated
    /// at the earliest moment the runner reached `start + D`).
    package func bestEffort(over distance: RecordDistance) -> BestEffort? {
        if distance == .longest {
            guard let first = times.first, let last = times.last, totalDistance > 0 else { return nil }
            return BestEffort(
                distance: .longest, elapsedTime: last - first, startOffset: first, distanceMetres: totalDistance)
        }
        let target = distance.metres
        let n = count
        guard n >= 2, totalDistance >= target else { return nil }
        var bestTime = Double.infinity
        var bestStart = 0.0

        // Ends on a sample j; start at s = d[j] - D lies in [d[i], d[i+1]) with i as large as possible.
        var i = 0
        for j in 1..<n where distances[j] >= target {
            let start = distances[j] - target
            while i + 1 < j && distances[i + 1] <= start { i += 1 }
            let startTime = distances[i] == start ? times[i] : interpolate(from: i, to: i + 1, at: start)
            let elapsed = times[j] - startTime
            if elapsed < bestTime {
                bestTime = elapsed
                bestStart = startTime
            }
        }

        // Starts on a sample i; the end at e = d[i] + D lies in (d[j-1], d[j]] with j as small as possible.
        var j = 1
        for i in 0..<(n - 1) {
            let end = distances[i] + target
            guard end <= totalDistance else { break }
            if j <= i { j = i + 1 }
            while j < n && distances[j] < end { j += 1 }
            guard j < n else { break }
            let endTime = distances[j] == end ? times[j] : interpolate(from: j - 1, to: j, at: end)
            let elapsed = endTime - times[i]
            if elapsed < bestTime {
                bestTime = elapsed
                bestStart = times[i]
            }
        }
        guard bestTime.isFinite else { return nil }
        return BestEffort(distance: distance, elapsedTime: bestTime, startOffset: bestStart)
    }
}
