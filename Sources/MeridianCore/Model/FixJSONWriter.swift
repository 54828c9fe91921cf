/// Writes a `Fix` as JSON straight into a byte buffer, producing exactly the text
/// `MeridianJSON` makes from a `FixRecord` (same keys, order, numbers and escapes)
/// at a fraction of the cost — for streaming millions of fixes (`meridian replay --json`).
///
/// The object is composed in a scratch buffer on the stack and appended to the
/// output in one copy; numbers and the time are written as bytes, never as `String`s,
/// and short decimals (altitudes, tracks, accuracies) without the general shortest-digits search.
public enum FixJSONWriter {
    /// Appends the JSON object for `fix` (no trailing newline) to `buffer`.
    /// `includeProvider` adds `provider` and `signal`, as `FixRecord(fix, includeProvider: true)` does.
    public static func append(_ fix: Fix, includeProvider: Bool = false, to buffer: inout [UInt8]) {
        let capacity = fixedPartCapacity + (includeProvider ? JSONScratchWriter.escapedCapacity(fix.providerID) : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var out = JSONScratchWriter(base: scratch.baseAddress!)
            out.append(#"{"time":""#)
            out.count += ISO8601.write(fix.time, to: out.base + out.count)
            out.append("\"")
            out.number(Keys.lat, fix.coordinate?.latitude)
            out.number(Keys.lon, fix.coordinate?.longitude)
            out.number(Keys.altHae, fix.altitudeHAE)
            out.number(Keys.altMsl, fix.altitudeMSL)
            out.number(Keys.speed, fix.speed)
            out.number(Keys.track, fix.course)
            out.append(#","mode":"#)
            out.integer(fix.mode.rawValue)
            if let quality = fix.quality {
                out.append(#","quality":"#)
                out.string(quality.rawValue)
            }
            out.number(Keys.eph, fix.horizontalAccuracy)
            out.number(Keys.epv, fix.verticalAccuracy)
            if let satellites = fix.satellitesUsed {
                out.append(#","satellites_used":"#)
                out.integer(satellites)
            }
            if includeProvider {
                out.append(#","provider":"#)
                out.string(fix.providerID)
                if let signal = fix.signalQuality {
                    out.append(#","signal":"#)
                    out.string(signal.rawValue)
                }
            }
            out.append("}")
            buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: out.count))
        }
    }

    /// The JSON object for `fix` as a string.
    public static func string(_ fix: Fix, includeProvider: Bool = false) -> String {
        var buffer: [UInt8] = []
        append(fix, includeProvider: includeProvider, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The number keys, with their rounding worked out once.
    private enum Keys {
        static let lat = JSONKey(#","lat":"#)
        static let lon = JSONKey(#","lon":"#)
        static let altHae = JSONKey(#","alt_hae":"#)
        static let altMsl = JSONKey(#","alt_msl":"#)
        static let speed = JSONKey(#","speed":"#)
        static let track = JSONKey(#","track":"#)
        static let eph = JSONKey(#","eph":"#)
        static let epv = JSONKey(#","epv":"#)
    }

    /// Room for everything but the provider id: the time, eight numbers of at most 24 characters with
    /// their keys, the mode, the longest quality, an integer of 20 characters, the signal.
    private static let fixedPartCapacity = 512
}
