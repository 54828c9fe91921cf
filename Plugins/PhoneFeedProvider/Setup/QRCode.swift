/// A QR code (ISO/IEC 18004) of bytes, error correction level M, versions 1 to 40: what the Devices page and
/// `meridian devices add` show for OwnTracks' configuration link. Made here, with no network and no library.
package struct QRCode: Sendable, Equatable {
    /// Modules per side (21 to 177).
    package let size: Int
    /// Row-major, `true` = dark.
    private(set) var modules: [Bool]
    private var isFunction: [Bool]

    /// Level M's error correction codewords per block and number of blocks, by version (index 0 unused).
    private static let eccPerBlock = [
        0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26,
        28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28
    ]
    private static let blocks = [
        0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21,
        23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49
    ]

    /// The code of `bytes` in the smallest version that holds them, or `nil` above version 40's 2331 bytes.
    package init?(bytes: [UInt8]) {
        guard
            let version = (1...40).first(where: {
                Self.dataCodewords($0) * 8 >= 4 + Self.countBits($0) + bytes.count * 8
            })
        else {
            return nil
        }
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = modules
        drawFunctionPatterns(version: version)
        drawCodewords(Self.interleaved(Self.dataCodewords(bytes, version: version), version: version))
        var best: (penalty: Int, mask: Int, modules: [Bool])?
        for mask in 0..<8 {
            var candidate = self
            candidate.apply(mask: mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if penalty < best?.penalty ?? .max { best = (penalty, mask, candidate.modules) }
        }
        modules = best?.modules ?? modules
    }

    /// Whether the module at column `x`, row `y` is dark (outside the code: light, the quiet zone).
    package func isDark(x: Int, y: Int) -> Bool {
        (0..<size).contains(x) && (0..<size).contains(y) && modules[y * size + x]
    }

    // MARK: Data

    private static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

    private static func rawModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let align = version / 7 + 2
            result -= (25 * align - 10) * align - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    private static func dataCodewords(_ version: Int) -> Int {
        rawModules(version) / 8 - eccPerBlock[version] * blocks[version]
    }

    /// Byte mode segment, terminator and padding.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version))
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// Splits into blocks, adds each block's Reed-Solomon codewords and interleaves them.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let count = blocks[version], ecc = eccPerBlock[version]
        let raw = rawModules(version) / 8
        let short = count - raw % count, shortLength = raw / count
        let divisor = reedSolomonDivisor(degree: ecc)
        var split: [[UInt8]] = []
        var offset = 0
        for index in 0..<count {
            let length = shortLength - ecc + (index < short ? 0 : 1)
            let block = Array(data[offset..<offset + length])
            offset += length
            // Short blocks get a placeholder so that every block has the same length; it is skipped below.
            split.append(block + (index < short ? [0] : []) + reedSolomonRemainder(block, divisor))
        }
        var result: [UInt8] = []
        for i in 0..<split[0].count {
            for (j, block) in split.enumerated() where i != shortLength - ecc || j >= short { result.append(block[i]) }
        }
        return result
    }

    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for i in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int(y >> UInt8(i) & 1) * Int(x)
        }
        return UInt8(z)
    }

    private static func reedSolomonDivisor(degree: Int) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    private static func reedSolomonRemainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }

    // MARK: Drawing

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns(version: Int) {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = Self.alignmentPositions(version: version, size: size)
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 { for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) } }
            }
        }
        drawFormatBits(mask: 0)  // reserves the area; drawn again with the chosen mask
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let dark = bits >> i & 1 == 1
                set(size - 11 + i % 3, i / 3, dark)
                set(i / 3, size - 11 + i % 3, dark)
            }
        }
    }

    private static func alignmentPositions(version: Int, size: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        return [6] + (0..<count - 1).map { size - 7 - $0 * step }.reversed()
    }

    /// Level M (format bits 00) and `mask`, BCH-coded, in both copies, plus the dark module.
    private mutating func drawFormatBits(mask: Int) {
        let data = 0 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { bits >> i & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    private mutating func drawCodewords(_ data: [UInt8]) {
        var i = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y * size + x], i < data.count * 8 {
                        modules[y * size + x] = data[i >> 3] >> UInt8(7 - i & 7) & 1 == 1
                        i += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let flip =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if flip { modules[y * size + x].toggle() }
            }
        }
    }

    /// The standard's penalty (runs, 2×2 blocks, finder-like patterns, dark balance): the lowest mask is used.
    private func penalty() -> Int {
        var result = 0
        let finderLike: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
        for transposed in [false, true] {
            for a in 0..<size {
                let line = (0..<size).map { b in transposed ? modules[b * size + a] : modules[a * size + b] }
                var run = 1
                for b in 1...size {
                    if b < size, line[b] == line[b - 1] {
                        run += 1
                    } else {
                        if run >= 5 { result += run - 2 }
                        run = 1
                    }
                }
                if size >= finderLike.count {
                    for b in 0...(size - finderLike.count) {
                        let window = Array(line[b..<b + finderLike.count])
                        if window == finderLike || window == finderLike.reversed() { result += 40 }
                    }
                }
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let dark = modules[y * size + x]
                if modules[y * size + x + 1] == dark, modules[(y + 1) * size + x] == dark,
                    modules[(y + 1) * size + x + 1] == dark
                {
                    result += 3
                }
            }
        }
        let dark = modules.filter { $0 }.count, total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }
}
