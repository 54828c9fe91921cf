import MeridianCore

/// Positional `LAT,LON` arguments. A point such as `-33.87,151.21` starts with a minus, which ArgumentParser would take
/// for an option, so commands collect their points with `@Argument(parsing: .allUnrecognized)` and check them here
/// (options that take a point use `@Option(parsing: .unconditional)`).
public enum CoordinateArguments {
    /// The points in `values`, which must number `count`; an unknown option (`--radus`) or a value that is not
    /// `LAT,LON` is a usage error (exit 2) naming it. `expected` describes the points for the count message.
    public static func parse(_ values: [String], count: ClosedRange<Int>, expected: String) throws(CommandFailure) -> [Coordinate] {
        if let option = values.first(where: looksLikeOption) {
            throw CommandFailure("unknown option '\(option)'; see --help for the options", code: 2)
        }
        guard count.contains(values.count) else {
            throw CommandFailure("expected \(expected), got \(values.count)", code: 2)
        }
        var points: [Coordinate] = []
        for value in values {
            do {
                points.append(try Coordinate(parsing: value))
            } catch {
                throw CommandFailure("\(error)", code: 2)
            }
        }
        return points
    }

    /// `-x`, `--x`: an option, not a negative number (`-33.87,151.21`, `-.5,2`).
    static func looksLikeOption(_ value: String) -> Bool {
        guard value.hasPrefix("-"), let next = value.dropFirst().first else { return false }
        return !(next.isNumber || next == ".")
    }
}
