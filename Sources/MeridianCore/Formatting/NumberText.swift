import Foundation

/// Locale-independent fixed-point number printing: always `.` as the decimal
/// separator, never exponent notation, never "-0".
public enum NumberText {
    /// `value` rounded half away from zero to `decimals` places (0...9), e.g. `fixed(2.25, decimals: 1)` is "2.3".
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "--" }
        let decimals = min(max(decimals, 0), 9)
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return String(format: "%.\(decimals)f", value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = units / divisor
        let fraction = units % divisor
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let fractionDigits = String(fraction)
        let padding = String(repeating: "0", count: decimals - fractionDigits.count)
        return "\(sign)\(whole).\(padding)\(fractionDigits)"
    }

    /// Like `fixed`, with trailing zeros (and a trailing point) removed: `trimmed(1.5, decimals: 6)` is "1.5".
    public static func trimmed(_ value: Double, decimals: Int) -> String {
        var text = fixed(value, decimals: decimals)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

