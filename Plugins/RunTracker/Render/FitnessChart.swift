import MeridianCore

/// Fitness (CTL), fatigue (ATL) and form (TSB) day by day as lines over the daily load as bars, in an SVG that scales
/// to its container; form has its own zero line in the lower band.
package struct FitnessChart: Sendable {
    package var width = 640.0
    package var height = 280.0
    package var fontSize = 17.0

    package init() {}

    package func svg(_ days: [FitnessDay], title: String, label: (String) -> String) -> String {
        let top = fontSize + 8, bottom = fontSize + 12, side = 40.0
        let plotWidth = width - 2 * side, upper = (height - top - bottom) * 0.66,
            lower = (height - top - bottom) - upper - 8
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(f(width)) \(f(height))" role="img" font-family="system-ui, sans-serif" font-size="\(f(fontSize))">\
            <title>\(XMLText.escape(title))</title>

            """
        guard !days.isEmpty else {
            return svg
                + "<text x=\"\(f(width / 2))\" y=\"\(f(height / 2))\" text-anchor=\"middle\" fill=\"#515c55\">No training load yet</text></svg>"
        }
        let highest = max(days.map { max($0.ctl, $0.atl) }.max() ?? 0, 1)
        let highestLoad = max(days.map(\.load).max() ?? 0, 1)
        let formReach = max(days.map { abs($0.tsb) }.max() ?? 0, 1)
        let step = plotWidth / Double(max(days.count - 1, 1))
        func x(_ index: Int) -> Double { side + Double(index) * step }
        func y(_ value: Double) -> Double { top + upper - value / highest * upper }
        let formMiddle = top + upper + 8 + lower / 2
        func formY(_ value: Double) -> Double { formMiddle - value / formReach * lower / 2 }
        svg +=
            "<line x1=\"\(f(side))\" y1=\"\(f(top + upper))\" x2=\"\(f(width - side))\" y2=\"\(f(top + upper))\" stroke=\"#9aa39c\"/>\n"
        svg +=
            "<line x1=\"\(f(side))\" y1=\"\(f(formMiddle))\" x2=\"\(f(width - side))\" y2=\"\(f(formMiddle))\" stroke=\"#c9cfca\" stroke-dasharray=\"4 3\"/>\n"
        let barWidth = max(1, min(step * 0.7, 12))
        for (index, day) in days.enumerated() where day.load > 0 {
            let barHeight = day.load / highestLoad * upper * 0.5
            svg +=
                "<rect x=\"\(f(x(index) - barWidth / 2))\" y=\"\(f(top + upper - barHeight))\" width=\"\(f(barWidth))\" height=\"\(f(barHeight))\" fill=\"#c9d8cf\"><title>\(XMLText.escape("\(day.date): load \(NumberText.fixed(day.load, decimals: 0))"))</title></rect>\n"
        }
        func line(_ points: [(Double, Double)], colour: String, dash: String? = nil) -> String {
            let path = points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
            return
                "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\" stroke-linejoin=\"round\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>\n"
        }
        svg += line(days.enumerated().map { (x($0.offset), y($0.element.ctl)) }, colour: "#0a7150")
        svg += line(days.enumerated().map { (x($0.offset), y($0.element.atl)) }, colour: "#b4462b", dash: "6 4")
        svg += line(days.enumerated().map { (x($0.offset), formY($0.element.tsb)) }, colour: "#2f5d9a")
        svg +=
            "<text x=\"\(f(side - 4))\" y=\"\(f(top + 4))\" text-anchor=\"end\" fill=\"#515c55\">\(NumberText.fixed(highest, decimals: 0))</text>\n"
        svg += "<text x=\"\(f(side - 4))\" y=\"\(f(formMiddle + 4))\" text-anchor=\"end\" fill=\"#515c55\">0</text>\n"
        for index in [0, days.count / 2, days.count - 1] {
            svg +=
                "<text x=\"\(f(x(index)))\" y=\"\(f(height - 4))\" text-anchor=\"middle\" fill=\"#515c55\">\(XMLText.escape(label(days[index].date)))</text>\n"
        }
        return svg + "</svg>"
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
