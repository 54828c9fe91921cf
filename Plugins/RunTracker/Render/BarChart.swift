import MeridianCore

/// Bars with a label under each (every other one when there are many) and the value above, as an SVG that
/// scales to its container: the weekly and monthly distances of the records page.
package struct BarChart: Sendable {
    package struct Bar: Sendable {
        package var label: String
        package var value: Double
        package var valueText: String

        package init(label: String, value: Double, valueText: String) {
            self.label = label
            self.value = value
            self.valueText = valueText
        }
    }

    package var width = 440.0
    package var height = 220.0
    package var fontSize = 15.0
    package var colour = "#0a7150"

    package init() {}

    package func svg(_ bars: [Bar], title: String) -> String {
        let top = fontSize + 10, bottom = fontSize + 14, side = 6.0
        let plotHeight = height - top - bottom
        let slot = bars.isEmpty ? 0 : (width - 2 * side) / Double(bars.count)
        let highest = max(bars.map(\.value).max() ?? 0, 1e-9)
        let labelEvery = slot < fontSize * 4 ? 2 : 1
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(f(width)) \(f(height))" role="img" font-family="system-ui, sans-serif" font-size="\(f(fontSize))">\
            <title>\(XMLText.escape(title))</title>
            <line x1="\(f(side))" y1="\(f(top + plotHeight))" x2="\(f(width - side))" y2="\(f(top + plotHeight))" stroke="#9aa39c"/>

            """
        if !bars.contains(where: { $0.value > 0 }) {
            svg +=
                "<text x=\"\(f(width / 2))\" y=\"\(f(top + plotHeight / 2))\" text-anchor=\"middle\" fill=\"#515c55\">Nothing recorded in this time</text>\n"
        }
        for (index, bar) in bars.enumerated() {
            let x = side + Double(index) * slot
            let barHeight = bar.value / highest * plotHeight
            if bar.value > 0 {
                svg +=
                    "<rect x=\"\(f(x + slot * 0.15))\" y=\"\(f(top + plotHeight - barHeight))\" width=\"\(f(slot * 0.7))\" height=\"\(f(barHeight))\" rx=\"3\" fill=\"\(colour)\"><title>\(XMLText.escape("\(bar.label): \(bar.valueText)"))</title></rect>"
                svg +=
                    "<text x=\"\(f(x + slot / 2))\" y=\"\(f(top + plotHeight - barHeight - 5))\" text-anchor=\"middle\" fill=\"#17201b\">\(XMLText.escape(bar.valueText))</text>\n"
            }
            if (bars.count - 1 - index) % labelEvery == 0 {
                svg +=
                    "<text x=\"\(f(x + slot / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\" fill=\"#515c55\">\(XMLText.escape(bar.label))</text>\n"
            }
        }
        return svg + "</svg>"
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
