extension QRCode {
    /// Light modules around the code, as the standard asks.
    package static let quietZone = 4

    /// The code for a terminal with light text on a dark background: two rows per line in Unicode half blocks, light
    /// modules drawn (as `qrencode -t UTF8` does), so a phone scans it from the screen.
    package func terminalLines() -> [String] {
        let range = -Self.quietZone..<(size + Self.quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
            String(
                range.map { x -> Character in
                    switch (isDark(x: x, y: y), y + 1 < range.upperBound ? isDark(x: x, y: y + 1) : true) {
                    case (false, false): "█"
                    case (false, true): "▀"
                    case (true, false): "▄"
                    case (true, true): " "
                    }
                })
        }
    }

    /// The code as a standalone SVG, one dark path on a white square including the quiet zone.
    package func svg(pixelsPerModule: Int = 6) -> String {
        let side = size + 2 * Self.quietZone
        var path = ""
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                path += "M\(x + Self.quietZone) \(y + Self.quietZone)h1v1h-1z"
            }
        }
        return
            #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(side) \#(side)" width="\#(side * pixelsPerModule)" "#
            + #"height="\#(side * pixelsPerModule)" shape-rendering="crispEdges" role="img" aria-label="QR code">"#
            + #"<rect width="\#(side)" height="\#(side)" fill="white"/><path d="\#(path)" fill="black"/></svg>"#
    }
}
