import MeridianCore

/// Positional `LAT,LON` arguments. A point such as `-33.87,151.21` starts with a minus, which ArgumentParser would take
/// for an option, so commands collect their points with `@Argument(parsing: .allUnrecognized)` and check them here
/// (options that take a point use `@Option(parsing: .unconditional)`).
public enum CoordinateArguments {
    /// The points in `values`, which must number `count`; an unknown option (`--radus`) or a value that is not
    /// `LAT,LON` is a usage error (exit 2) naming it. `expected` describes the points for the count message.
    public static func parse(_ values: [String], count: ClosedRange<Int>, expected: String) throws(CommandFailure)
        -> [Coordinate]
    {
        let values = try positional(values)
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

    /// The positional values among what ArgumentParser left unrecognised: a `--` ends the options, as in every Unix
    /// command, and everything after it is taken as written; before it, a value that looks like an option (`--radus`,
    /// not `-33.87,151.21`) is a usage error (exit 2) naming it.
    public static func positional(_ values: [String]) throws(CommandFailure) -> [String] {
        let end = values.firstIndex(of: "--") ?? values.endIndex
        if let option = values[..<end].first(where: looksLikeOption) {
            throw CommandFailure(
                "unknown option '\(option)'; see --help for the options (give values that start with '-' after '--')",
                code: 2)
        }
        return Array(values[..<end]) + values[end...].dropFirst()
    }

    /// `-x`, `--x`: an option, not a negative number (`-33.87,151.21`, `-.5,2`).
    static func looksLikeOption(_ value: String) -> Bool {
        guard value.hasPrefix("-"), let next = value.dropFirst().first else { return false }
        return !(next.isNumber || next == ".")
    }
}
