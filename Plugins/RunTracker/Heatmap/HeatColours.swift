import Foundation

/// The heatmap's colours: a dark ground, and for pixels that were run a ramp from red (once) through orange and
/// yellow to white (the most), on a logarithmic scale so a street run twice stands out from one run once while the
/// busiest streets still grade.
package enum HeatColours {
    /// The ground, `#15181c`.
    package static let ground: (UInt8, UInt8, UInt8) = (0x15, 0x18, 0x1c)
    /// The ramp's stops, from once to the most.
    package static let stops: [(UInt8, UInt8, UInt8)] = [
        (0xa3, 0x1c, 0x1c), (0xd8, 0x3a, 0x1c), (0xf2, 0x78, 0x1e), (0xfb, 0xb4, 0x2e), (0xff, 0xe8, 0x7a),
        (0xff, 0xff, 0xff)
    ]

    /// Where `count` of `maxCount` runs lies on the ramp, 0 (once) to 1 (the most).
    package static func level(_ count: UInt32, of maxCount: UInt32) -> Double {
        guard maxCount > 1, count > 1 else { return 0 }
        return min(1, log(Double(count)) / log(Double(maxCount)))
    }

    /// The colour of a pixel `count` runs crossed.
    package static func colour(_ count: UInt32, of maxCount: UInt32) -> (UInt8, UInt8, UInt8) {
        guard count > 0 else { return ground }
        let position = level(count, of: maxCount) * Double(stops.count - 1)
        let lower = min(Int(position), stops.count - 2)
        let t = position - Double(lower)
        let a = stops[lower], b = stops[lower + 1]
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * t).rounded()) }
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// `#rrggbb` of a colour.
    package static func hex(_ colour: (UInt8, UInt8, UInt8)) -> String {
        let digits = Array("0123456789abcdef")
        return "#"
            + [colour.0, colour.1, colour.2].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
    }
}
