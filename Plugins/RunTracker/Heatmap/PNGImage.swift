import CZlib
import Foundation

/// A truecolour PNG (8-bit RGB, no interlace) compressed with zlib's deflate, the whole encoder a heatmap needs.
package enum PNGImage {
    /// What went wrong while encoding.
    package struct EncodingError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The PNG of `pixels` (`width` × `height` RGB triples, row by row from the top left).
    package static func encode(width: Int, height: Int, pixels: [UInt8]) throws(EncodingError) -> Data {
        guard width > 0, height > 0, pixels.count == width * height * 3 else {
            throw EncodingError(description: "a \(width)×\(height) picture needs \(width * height * 3) bytes of RGB")
        }
        // Each row starts with its filter type: 1 (Sub, each byte less the one three before) packs the long runs
        // of the heatmap's ground best.
        var raw = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        for row in 0..<height {
            let out = row * (width * 3 + 1), input = row * width * 3
            raw[out] = 1
            for index in 0..<(width * 3) {
                let left = index >= 3 ? pixels[input + index - 3] : 0
                raw[out + 1 + index] = pixels[input + index] &- left
            }
        }
        var compressedSize = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedSize))
        let status = compress2(&compressed, &compressedSize, raw, uLong(raw.count), 6)
        guard status == Z_OK else {
            throw EncodingError(description: "zlib could not compress the picture (\(status))")
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, adaptive filters, no interlace
        png.append(chunk: "IHDR", header)
        png.append(chunk: "IDAT", Data(compressed[0..<Int(compressedSize)]))
        png.append(chunk: "IEND", Data())
        return png
    }
}

extension Data {
    fileprivate mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)
        ])
    }

    /// A chunk: length, type, data and the CRC-32 of type and data.
    fileprivate mutating func append(chunk type: String, _ data: Data) {
        append(bigEndian: UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        let crc = typed.withUnsafeBytes { bytes in
            crc32(0, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
        }
        append(bigEndian: UInt32(crc))
    }
}
