/// A value whose JSON text can be written directly, byte for byte what `MeridianJSON`'s encoder makes
/// of it, for answers on hot paths (`JSONResponse` writes it straight into the response's buffer).
public protocol DirectJSONEncodable: Encodable {
    /// The most bytes `writeDirectJSON` writes, or nil when the value holds something the encoder refuses (a
    /// non-finite number).
    var directJSONCapacity: Int? { get }
    /// Writes the JSON text to `out`, which has room for `directJSONCapacity` bytes.
    func writeDirectJSON(to out: inout JSONScratchWriter)
}

extension DirectJSONEncodable {
    /// The JSON text, or nil when the value holds something the encoder refuses.
    public func directJSON() -> [UInt8]? {
        guard let capacity = directJSONCapacity else { return nil }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, written in
            var out = JSONScratchWriter(base: buffer.baseAddress!)
            writeDirectJSON(to: &out)
            written = out.count
        }
    }
}
