import Foundation
import MeridianCore

/// Distances given on the command line: `2km`, `500m`, `1.5mi`, `300ft` or a bare number of metres.
public enum DistanceArgument {
    /// Metres from `text`, given as `option`; anything else (or not above 0) is a usage error (exit 2) naming it.
    public static func metres(_ text: String, option: String) throws(CommandFailure) -> Double {
        let units: [(String, Double)] = [
            ("km", 1000), ("mi", UnitSystem.metresPerMile), ("ft", UnitSystem.metresPerFoot), ("m", 1)
        ]
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            if let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
                value.isFinite, value > 0
            {
                return value * factor
            }
        }
        if let value = Double(trimmed), value.isFinite, value > 0 { return value }
        throw CommandFailure("\(option) '\(text)' is not a distance; write e.g. 2km, 500m, 1.5mi or 300ft", code: 2)
    }
}
