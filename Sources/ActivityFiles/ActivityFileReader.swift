import Foundation

/// Reads activity files: FIT, TCX, GPX, and receivers' NMEA 0183 and gpsd JSON logs, each optionally
/// gzip-compressed, with the format detected from the bytes (never from the name).
///
/// ```swift
/// let activities = try ActivityFileReader.read(contentsOf: url)   // throws ActivityFileError
/// for activity in activities { print(activity.sport, activity.samples.count, activity.totals?.distance) }
/// ```
public enum ActivityFileReader {
    /// Reads every activity in the bytes: a FIT file gives one per session (a chain of FIT files
    /// one per session of each), a TCX file one per `Activity`, a GPX file and a receiver log one.
    /// Throws when the bytes are not one of these formats (GeoJSON, which Meridian exports, says so) or are damaged;
    /// the error names `file` and the byte offset or line. A receiver log's bad lines are skipped (receivers write them);
    /// the first of them are kept as warnings.
    ///
    /// Compressed bytes are looked into before they are decompressed: what is not an activity file is
    /// refused from its first 64 KiB. GPX and TCX are parsed as they decompress (up to
    /// `Gzip.maximumDecompressedSize`); the other formats are decoded from memory, so they may decompress
    /// to at most ``maximumBufferedSize``. `isCancelled` is asked while GPX and TCX are read; when it
    /// says so, reading stops with an error.
    public static func read(_ data: Data, file: String, isCancelled: () -> Bool = { false }) throws(ActivityFileError)
        -> [RecordedActivity]
    {
        let prefix: Data
        do {
            prefix = Gzip.isCompressed(data) ? try leadingBytes(of: data) : data.prefix(detectionPrefix)
        } catch {
            throw ActivityFileError(file: file, byteOffset: error.byteOffset, message: error.description)
        }
        if GeoJSONPrefix.matches(prefix) { throw ActivityFileError(file: file, message: GeoJSONPrefix.refusal) }
        // A gzip file inside a gzip file is none of the formats.
        let format = Gzip.isCompressed(prefix) ? nil : detect(prefix)
        switch format {
        case .fit:
            let bytes = try decompressed(data, file: file)
            do {
                return try readFIT(bytes, file: file, salvage: false).activities
            } catch {
                // Say how much a salvage would keep.
                var refusal = error
                if let salvaged = try? readFIT(bytes, file: file, salvage: true), let damage = salvaged.damage {
                    let samples = salvaged.activities.reduce(0) { $0 + $1.samples.count }
                    if samples > 0 {
                        refusal.readable = ReadablePart(
                            bytes: damage.byteOffset ?? 0, totalBytes: bytes.count, samples: samples)
                    }
                }
                throw refusal
            }
        case .tcx, .gpx:
            return try readXML(.bytes(data), tcx: format == .tcx, file: file, isCancelled: isCancelled)
        case .nmea?:
            return [try readLog(try decompressed(data, file: file), file: file, format: .nmea)]
        case .gpsd?:
            return [try readLog(try decompressed(data, file: file), file: file, format: .gpsd)]
        case nil where prefix.isEmpty:
            throw ActivityFileError(file: file, message: "the file is empty; export the activity again")
        case nil:
            throw ActivityFileError(
                file: file, byteOffset: 0,
                message:
                    "not a FIT, TCX or GPX file (it starts with \(describe(prefix.prefix(16)))); export the activity as FIT, TCX or GPX"
            )
        }
    }

    /// Reads like ``read(_:file:isCancelled:)``, but keeps what a damaged FIT file (cut short, a CRC mismatch at
    /// the end, garbage after its last good record) holds up to its last complete message, with the damage beside.
    /// Throws when nothing before the damage is readable, or for any other format's damage.
    public static func salvage(
        _ data: Data, file: String,
        isCancelled: () -> Bool = { false }
    ) throws(ActivityFileError) -> SalvagedActivities {
        let prefix = Gzip.isCompressed(data) ? ((try? leadingBytes(of: data)) ?? Data()) : data.prefix(detectionPrefix)
        guard !Gzip.isCompressed(prefix), detect(prefix) == .fit else {
            return SalvagedActivities(activities: try read(data, file: file, isCancelled: isCancelled))
        }
        let bytes = try decompressed(data, file: file)
        let salvaged = try readFIT(bytes, file: file, salvage: true)
        if let damage = salvaged.damage, !salvaged.activities.contains(where: { !$0.samples.isEmpty }) {
            throw damage
        }
        return salvaged
    }

    /// The activities of FIT `bytes`; with `salvage`, those read before any damage, and the damage.
    private static func readFIT(_ bytes: Data, file: String, salvage: Bool) throws(ActivityFileError)
        -> SalvagedActivities
    {
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(ActivityFileError) in try FITDecoder(file: file, salvage: salvage).decode(raw) }
        }
        var files = try decoded.get()
        _ = consume decoded
        let damage = files.last?.damage
        if salvage { files.removeAll { $0.isEmpty } }
        var activities: [RecordedActivity] = []
        for index in files.indices {
            // Each file's samples move into its activities, so none is held twice.
            var reader = FITActivities(contents: FITContents(startOffset: 0), file: file)
            swap(&reader.contents, &files[index])
            activities += reader.activities()
        }
        return SalvagedActivities(activities: activities, damage: damage)
    }

    /// The most samples one file may hold (FIT records, GPX and TCX points, log fixes with a time): a million, more
    /// than 11 days at one a second (a 24-hour ride at 1 Hz has 86,400). Reading stops with an error past it, which
    /// keeps the memory an import needs bounded.
    public static let maximumSamples = 1_000_000

    /// What ``maximumSamples`` refuses.
    static let tooManySamples = """
        holds more than \(maximumSamples.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) \
        samples (11 days at one a second), the most one file may hold; split the activity into shorter files
        """

    /// The activities of a GPX or TCX document (streamed: no copy of the whole document is held).
    private static func readXML(
        _ input: XMLInput, tcx: Bool, file: String,
        isCancelled: () -> Bool
    ) throws(ActivityFileError) -> [RecordedActivity] {
        if tcx { return try TCXReader.read(input, file: file, isCancelled: isCancelled) }
        let result = GPXReader.read(input, file: file, isCancelled: isCancelled)
        if let error = result.error { throw error }
        return [result.activity]
    }

    /// The most bytes a compressed FIT file or receiver log may decompress to (64 MiB, as much as
    /// `POST /v1/runs/import` takes uncompressed): these are decoded from memory. A day of FIT at one
    /// record a second is a few MB, a day of NMEA at 1 Hz about 40 MB.
    public static let maximumBufferedSize = 64 << 20

    /// The first `detectionPrefix` decompressed bytes of gzip `data` (fewer when it is shorter).
    private static func leadingBytes(of data: Data) throws(GzipError) -> Data {
        var prefix = Data()
        try Gzip.decompress(data) { chunk in
            prefix.append(contentsOf: chunk.prefix(detectionPrefix - prefix.count))
            return prefix.count < detectionPrefix
        }
        return prefix
    }

    /// `data` decompressed (up to ``maximumBufferedSize``) when it is gzip, else itself.
    private static func decompressed(_ data: Data, file: String) throws(ActivityFileError) -> Data {
        guard Gzip.isCompressed(data) else { return data }
        do {
            return try Gzip.decompress(data, limit: maximumBufferedSize)
        } catch {
            throw ActivityFileError(file: file, byteOffset: error.byteOffset, message: error.description)
        }
    }

    /// Reads the file at `url` (see ``read(_:file:)``); errors name the path as given (`url.relativePath`). A plain
    /// GPX or TCX file is parsed as it is read, never held whole; any other file is read into memory, up to
    /// ``maximumBufferedSize`` bytes.
    public static func read(contentsOf url: URL) throws(ActivityFileError) -> [RecordedActivity] {
        let file = url.relativePath
        func cannotRead(_ error: any Error) -> ActivityFileError {
            let reason = (error as NSError).localizedDescription
            return ActivityFileError(
                file: file, message: "cannot read the file (\(reason)); check the path and its permissions")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let prefix = try handle.read(upToCount: detectionPrefix) ?? Data()
            if !GeoJSONPrefix.matches(prefix), let format = detect(prefix), !Gzip.isCompressed(prefix),
                format == .gpx || format == .tcx
            {
                try handle.seek(toOffset: 0)
                return try readXML(.file(handle), tcx: format == .tcx, file: file, isCancelled: { false })
            }
            let size = try handle.seekToEnd()
            guard size <= UInt64(maximumBufferedSize) else {
                throw ActivityFileError(
                    file: file,
                    message: """
                        is \(size >> 20) MiB; only plain GPX and TCX files are read as a stream, other files (FIT, logs, \
                        anything gzip-compressed) at most \(maximumBufferedSize >> 20) MiB; decompress it, or split the activity
                        """)
            }
            try handle.seek(toOffset: 0)
            data = try handle.readToEnd() ?? Data()
        } catch let error as ActivityFileError {
            throw error
        } catch {
            throw cannotRead(error)
        }
        return try read(data, file: file)
    }

    /// How many bytes `read` looks at to detect the format.
    static let detectionPrefix = 64 * 1024

    /// The format of a file that starts with `prefix` (a few KiB are plenty), looking inside
    /// gzip; a receiver log by the majority of its lines (NMEA sentences or gpsd JSON reports); nil when
    /// it is none of these.
    public static func detect(_ prefix: some Collection<UInt8>) -> ActivityFormat? {
        if Gzip.isCompressed(prefix) {
            guard let inner = Gzip.decompressedPrefix(prefix, count: detectionPrefix), !Gzip.isCompressed(inner) else {
                return nil
            }
            return detect(inner)
        }
        if FITDecoder.looksLikeFIT(prefix) { return .fit }
        switch XMLRoot.localName(prefix) {
        case "gpx": return .gpx
        case "TrainingCenterDatabase": return .tcx
        default: break
        }
        switch TrackFormat.logFormat(prefix: prefix) {
        // Noise may come before a receiver's first sentence, but a log without one in its first 64 KiB is none.
        case .nmea? where prefix.contains(UInt8(ascii: "$")) || prefix.contains(UInt8(ascii: "!")): return .nmea
        case .gpsd?: return .gpsd
        default: return nil
        }
    }

    /// A receiver log as one activity: every fix a sample. Refused when it holds no fix at all.
    private static func readLog(_ bytes: Data, file: String, format: TrackFormat) throws(ActivityFileError)
        -> RecordedActivity
    {
        var activity = RecordedActivity(format: format == .gpsd ? .gpsd : .nmea)
        var problems = 0
        let reader = TrackFileReader(data: bytes, file: file, format: format, providerID: "import")
        do {
            while try reader.nextBatch(
                onError: { error in
                    problems += 1
                    activity.warn(ActivityFileError(file: error.file, line: error.line, message: error.message))
                }, onFix: { activity.samples.append(RecordedSample($0)) }), activity.samples.count <= maximumSamples
            {}
        } catch {
            throw ActivityFileError(file: file, line: error.line, message: error.message)
        }
        guard activity.samples.count <= maximumSamples else {
            throw ActivityFileError(file: file, message: tooManySamples)
        }
        activity.skip("bad_lines", count: problems)
        activity.startTime = activity.samples.first?.time
        guard !activity.samples.isEmpty else {
            throw ActivityFileError(
                file: file, byteOffset: 0,
                message: """
                    not a FIT, TCX or GPX file (it starts with \(describe(bytes.prefix(16)))), and read as \
                    \(format == .gpsd ? "gpsd JSON" : "an NMEA log") it gives no time-stamped fix (\(problems) bad lines); \
                    export the activity as FIT, TCX or GPX
                    """)
        }
        return activity
    }

    /// The first bytes as text when they are printable, else as hex.
    private static func describe(_ bytes: Data) -> String {
        if let text = String(data: bytes, encoding: .utf8),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        {
            return "'\(text)'"
        }
        return bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}

/// What ``ActivityFileReader/salvage(_:file:isCancelled:)`` read: the activities, and the damage that ended reading
/// (`nil` for an undamaged file). The damage's byte offset is where the readable part ends.
public struct SalvagedActivities: Sendable {
    public var activities: [RecordedActivity]
    public var damage: ActivityFileError?

    public init(activities: [RecordedActivity], damage: ActivityFileError? = nil) {
        self.activities = activities
        self.damage = damage
    }
}
