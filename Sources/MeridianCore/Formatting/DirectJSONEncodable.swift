/// A value whose JSON text can be written directly, byte for byte what `MeridianJSON`'s encoder makes
/// of it, for answers on hot paths (`JSONResponse` uses it when a value offers it).
public protocol DirectJSONEncodable: Encodable {
    /// The JSON text, or nil when the value holds something the encoder refuses (a non-finite number).
    func directJSON() -> [UInt8]?
}
