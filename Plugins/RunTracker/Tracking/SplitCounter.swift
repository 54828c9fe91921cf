/// One completed split.
package struct Split: Sendable, Equatable, Codable {
    /// 1-based split number.
    package var index: Int
    /// Split length, metres.
    package var distance: Double
    /// Timer time spent on the split, seconds.
    package var time: Double

    enum CodingKeys: String, CodingKey {
        case index
        case distance = "distanceM"
        case time = "timeS"
    }
}

/// Splits of `length` metres, with timer times interpolated at each boundary.
struct SplitCounter: Sendable, Equatable, Codable {
    var completed: [Split] = []
    var lastDistance: Double = 0
    var lastTimer: Double = 0
    var splitStartTimer: Double = 0

    mutating func add(distance: Double, timer: Double, length: Double) {
        guard length > 0 else { return }
        while distance >= Double(completed.count + 1) * length, distance > lastDistance {
            let boundary = Double(completed.count + 1) * length
            let fraction = (boundary - lastDistance) / (distance - lastDistance)
            let boundaryTimer = lastTimer + fraction * (timer - lastTimer)
            completed.append(Split(index: completed.count + 1, distance: length, time: boundaryTimer - splitStartTimer))
            splitStartTimer = boundaryTimer
            lastDistance = boundary
            lastTimer = boundaryTimer
        }
        lastDistance = distance
        lastTimer = timer
    }
}
