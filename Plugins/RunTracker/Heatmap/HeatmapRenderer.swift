import Foundation
import MeridianCore

/// A heatmap as pictures: the raster in the heat colours as a PNG, and an SVG holding that PNG (as a `data:` image,
/// so the file needs nothing else) with a caption, a scale bar and the colour legend.
package struct HeatmapRenderer: Sendable {
    package let raster: HeatRaster
    package let units: UnitSystem

    package init(raster: HeatRaster, units: UnitSystem) {
        self.raster = raster
        self.units = units
    }

    /// The raster's pixels as RGB triples, row by row.
    package var pixels: [UInt8] {
        var pixels = [UInt8](repeating: 0, count: raster.counts.count * 3)
        var cache: [UInt32: (UInt8, UInt8, UInt8)] = [:]
        for (index, count) in raster.counts.enumerated() {
            let colour =
                cache[count]
                ?? {
                    let colour = HeatColours.colour(count, of: raster.maxCount)
                    cache[count] = colour
                    return colour
                }()
            pixels[index * 3] = colour.0
            pixels[index * 3 + 1] = colour.1
            pixels[index * 3 + 2] = colour.2
        }
        return pixels
    }

    /// The PNG of the raster alone.
    package func png() throws -> Data {
        try PNGImage.encode(width: raster.width, height: raster.height, pixels: pixels)
    }

    /// Height of the band under the map holding the scale bar and legend.
    private static let band = 34.0

    /// The SVG: the map, then a band with the scale bar and "once … N runs" legend; `caption` is its title.
    package func svg(caption: String) throws -> String {
        let width = Double(raster.width), mapHeight = Double(raster.height)
        let height = mapHeight + Self.band
        let ground = HeatColours.hex(HeatColours.ground)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(f(width)) \(f(height))" width="\(f(width))" height="\(f(height))" role="img" font-family="system-ui, sans-serif" font-size="12">\
            <title>\(XMLText.escape(caption))</title>
            <rect width="\(f(width))" height="\(f(height))" fill="\(ground)"/>

            """
        if raster.runCount == 0 {
            svg +=
                "<text x=\"\(f(width / 2))\" y=\"\(f(mapHeight / 2))\" text-anchor=\"middle\" fill=\"#c9cfca\">No routes in this selection</text>\n"
            return svg + "</svg>"
        }
        svg +=
            "<image width=\"\(raster.width)\" height=\"\(raster.height)\" href=\"data:image/png;base64,\(try png().base64EncodedString())\"/>\n"
        svg += ScaleBar.svg(
            x: 12, y: mapHeight + 20, metresPerPixel: raster.metresPerPixel, units: units, colour: "#e8ebe9")
        // The legend: the ramp with the counts at its ends.
        let legendWidth = min(120, width * 0.2), x = width - legendWidth - 60, y = mapHeight + 12
        svg += "<defs><linearGradient id=\"heat-ramp\">"
        for (index, stop) in HeatColours.stops.enumerated() {
            svg +=
                "<stop offset=\"\(f(Double(index) / Double(HeatColours.stops.count - 1)))\" stop-color=\"\(HeatColours.hex(stop))\"/>"
        }
        svg += "</linearGradient></defs>\n"
        svg +=
            "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(legendWidth))\" height=\"10\" fill=\"url(#heat-ramp)\"/>\n"
        svg +=
            "<text x=\"\(f(x - 6))\" y=\"\(f(y + 10))\" text-anchor=\"end\" fill=\"#e8ebe9\">once</text>"
        if raster.maxCount > 1 {
            svg +=
                "<text x=\"\(f(x + legendWidth + 6))\" y=\"\(f(y + 10))\" fill=\"#e8ebe9\">\(raster.maxCount) runs</text>\n"
        }
        return svg + "</svg>"
    }

    private func f(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }
}
