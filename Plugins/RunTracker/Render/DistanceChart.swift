import MeridianCore

/// Values along a run's distance drawn as SVG: filled areas (elevation) and lines (pace, with fast drawn high;
/// heart rate), a caption per series and a mark every kilometre or mile below. Used inside the run picture
/// and as the charts of the run page.
package struct DistanceChart: Sendable {
    /// How a series is drawn.
    package enum Style: Sendable {
        case area(fill: String)
        case line(stroke: String, width: Double)
    }

    /// One series: values at distances (metres), drawn between `low` and `high`.
    package struct Series: Sendable {
        package var samples: [(distance: Double, value: Double)]
        package var low: Double
        package var high: Double
        /// Larger values drawn lower (a pace line reads like speed).
        package var inverted: Bool
        package var style: Style
        /// Shown at the top: on the left for the first series, on the right for the others.
        package var caption: String
        package var captionColour: String

        package init(
            samples: [(distance: Double, value: Double)], low: Double, high: Double, inverted: Bool = false,
            style: Style, caption: String, captionColour: String
        ) {
            self.samples = samples
            self.low = low
            self.high = max(high, low + 1e-9)
            self.inverted = inverted
            self.style = style
            self.caption = caption
            self.captionColour = captionColour
        }
    }

    /// The run's distance, metres (the x axis).
    package var total: Double
    package var units: UnitSystem
    package var fontSize: Double

    package init(total: Double, units: UnitSystem, fontSize: Double = 10) {
        self.total = total
        self.units = units
        self.fontSize = fontSize
    }

    /// The chart's frame, series and distance marks, drawn into the box at `x`, `y` (marks go below it).
    package func draw(_ series: [Series], x: Double, y: Double, width: Double, height: Double) -> String {
        var svg =
            "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(width))\" height=\"\(f(height))\" fill=\"#fff\" stroke=\"#d8d8d0\"/>\n"
        guard total > 0 else { return svg }
        func px(_ distance: Double) -> Double { x + distance / total * width }
        for (number, line) in series.enumerated() where !line.samples.isEmpty {
            func py(_ value: Double) -> Double {
                let t = (min(max(value, line.low), line.high) - line.low) / (line.high - line.low)
                return y + 6 + (line.inverted ? t : 1 - t) * (height - 12)
            }
            let points = line.samples.map { "\(f(px($0.distance))),\(f(py($0.value)))" }.joined(separator: " ")
            switch line.style {
            case .area(let fill):
                svg +=
                    "<polygon fill=\"\(fill)\" points=\"\(f(x)),\(f(y + height)) \(points) \(f(x + width)),\(f(y + height))\"/>\n"
            case .line(let stroke, let width):
                svg +=
                    "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(f(width))\" stroke-linejoin=\"round\" points=\"\(points)\"/>\n"
            }
            let trailing = number > 0
            svg +=
                "<text x=\"\(f(trailing ? x + width - 4 : x + 4))\" y=\"\(f(y + fontSize + 2))\" font-size=\"\(f(fontSize))\" fill=\"\(line.captionColour)\"\(trailing ? " text-anchor=\"end\"" : "")>\(XMLText.escape(line.caption))</text>\n"
        }
        let unit = units == .metric ? 1000.0 : UnitSystem.metresPerMile
        let every = max(1, Int((total / unit / 10).rounded(.up)))
        var mark = unit, number = 1
        while mark <= total {
            if number % every == 0 {
                svg +=
                    "<line x1=\"\(f(px(mark)))\" y1=\"\(f(y + height))\" x2=\"\(f(px(mark)))\" y2=\"\(f(y + height + 4))\" stroke=\"#666\"/>"
                svg +=
                    "<text x=\"\(f(px(mark)))\" y=\"\(f(y + height + fontSize + 5))\" font-size=\"\(f(fontSize))\" text-anchor=\"middle\" fill=\"#555\">\(number) \(units == .metric ? "km" : "mi")</text>\n"
            }
            mark += unit
            number += 1
        }
        return svg
    }

    /// A chart on its own, scaled to the width of its container: `title` names it for screen readers.
    package func standalone(_ series: [Series], title: String, width: Double = 480, height: Double = 190) -> String {
        let frameHeight = height - fontSize - 12
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(f(width)) \(f(height))" role="img" font-family="system-ui, sans-serif">\
            <title>\(XMLText.escape(title))</title>
            \(draw(series, x: 1, y: 1, width: width - 2, height: frameHeight))</svg>
            """
    }

    /// The profile's elevation as an area series (`nil` without altitudes).
    package static func elevation(_ profile: Profile, units: UnitSystem) -> Series? {
        guard let low = profile.minAltitude, let high = profile.maxAltitude else { return nil }
        let samples = profile.samples.compactMap { sample in sample.altitude.map { (sample.distance, $0) } }
        guard !samples.isEmpty else { return nil }
        return Series(
            samples: samples, low: low, high: low + max(high - low, 10), style: .area(fill: "#c9c9c0"),
            caption:
                "elevation \(ElevationText.string(metres: low, units: units))–\(ElevationText.string(metres: high, units: units))",
            captionColour: "#555")
    }

    /// The profile's moving pace as a line, fast drawn high, between the 2nd and 98th percentile (`nil` without two
    /// paces), captioned in speeds for a ride; with `smoothing`, each point is the mean of the paces up to that many
    /// slices either side.
    package static func pace(
        _ profile: Profile, activity: Activity, units: UnitSystem, stroke: String = "#2166ac",
        smoothing: Int = 0
    ) -> Series? {
        let raw = profile.samples.compactMap { sample in sample.pace.map { (distance: sample.distance, value: $0) } }
        let samples = raw.indices.map { index in
            let window = raw[max(0, index - smoothing)...min(raw.count - 1, index + smoothing)]
            return (distance: raw[index].distance, value: window.reduce(0) { $0 + $1.value } / Double(window.count))
        }
        let paces = samples.map(\.value).sorted()
        guard paces.count > 1 else { return nil }
        let fast = paces[Int(Double(paces.count - 1) * 0.02)], slow = paces[Int(Double(paces.count - 1) * 0.98)]
        return Series(
            samples: samples, low: fast, high: fast + max(slow - fast, 1), inverted: true,
            style: .line(stroke: stroke, width: 1.8),
            caption: activity == .ride
                ? "speed \(PaceOrSpeed.text(secondsPerKilometre: slow, activity: activity, units: units)) – \(PaceOrSpeed.text(secondsPerKilometre: fast, activity: activity, units: units))"
                : "pace \(TimeFormat.pace(secondsPerKilometre: fast, units: units)) – \(TimeFormat.pace(secondsPerKilometre: slow, units: units))",
            captionColour: stroke)
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
