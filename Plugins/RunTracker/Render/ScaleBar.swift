import MeridianCore

/// A scale bar about 120 pixels long with a round length in the configured units (10 m to 50 km, or 50 ft to 10 mi).
enum ScaleBar {
    /// The bar with its left end at `x` and its line at `y`, and its length beside it.
    static func svg(x: Double, y: Double, metresPerPixel: Double, units: UnitSystem, colour: String = "#333") -> String
    {
        guard metresPerPixel > 0 else { return "" }
        let target = 120 * metresPerPixel
        let steps: [Double] =
            units == .metric
            ? [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
            : [50, 100, 200, 500, 1000, 2640, 5280, 10_560, 26_400, 52_800].map { $0 * UnitSystem.metresPerFoot }
        let length = steps.last { $0 <= target } ?? steps[0]
        let pixels = length / metresPerPixel
        return """
            <g stroke="\(colour)" stroke-width="2"><line x1="\(f(x))" y1="\(f(y))" x2="\(f(x + pixels))" y2="\(f(y))"/>\
            <line x1="\(f(x))" y1="\(f(y - 5))" x2="\(f(x))" y2="\(f(y + 1))"/><line x1="\(f(x + pixels))" y1="\(f(y - 5))" x2="\(f(x + pixels))" y2="\(f(y + 1))"/></g>\
            <text x="\(f(x + pixels + 6))" y="\(f(y + 4))" font-size="11" fill="\(colour)">\(DistanceFormat.string(metres: length, units: units))</text>

            """
    }

    private static func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
