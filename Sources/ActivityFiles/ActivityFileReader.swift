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
    /// Throws when the bytes are not one of these formats or are damaged; the error names `file`
    /// and the byte offset or line. A receiver log's bad lines are skipped (receivers write them);
    /// the first of them are kept as warnings.
    public static func read(_ data: Data, file: String) throws(ActivityFileError) -> [RecordedActivity] {
        var bytes = data
        if Gzip.isCompressed(data) {
            do {
                bytes = try Gzip.decompress(data)
            } catch {
                throw ActivityFileError(file: file, byteOffset: error.byteOffset, message: error.description)
            }
        }
        switch detect(bytes.prefix(detectionPrefix)) {
        case .fit:
            let decoded = bytes.withUnsafeBytes { raw in
                Result { () throws(ActivityFileError) in try FITDecoder(file: file).decode(raw) }
            }
            return try decoded.get().flatMap { FITActivities(contents: $0, file: file).activities() }
        case .tcx:
            return try TCXReader.read(bytes, file: file)
        case .gpx:
            let result = GPXReader.read(bytes, file: file)
            if let error = result.error { throw error }
            return [result.activity]
        case .nmea?:
            return [try readLog(bytes, file: file, format: .nmea)]
        case .gpsd?:
            return [try readLog(bytes, file: file, format: .gpsd)]
        case nil where bytes.isEmpty:
            throw ActivityFileError(file: file, message: "the file is empty; export the activity again")
        case nil:
            throw ActivityFileError(file: file, byteOffset: 0, message: "not a FIT, TCX or GPX file (it starts with \(describe(bytes.prefix(16)))); export the activity as FIT, TCX or GPX")
        }
    }

    /// Reads the file at `url` (see ``read(_:file:)``); errors name `url.path`.
    public static func read(contentsOf url: URL) throws(ActivityFileError) -> [RecordedActivity] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = (error as NSError).localizedDescription
            throw ActivityFileError(file: url.path, message: "cannot read the file (\(reason)); check the path and its permissions")
        }
        return try read(data, file: url.path)
    }

    /// How many bytes `read` looks at to detect the format.
    static let detectionPrefix = 64 * 1024

    /// The format of a file that starts with `prefix` (a few KiB are plenty), looking inside
    /// gzip; a receiver log by the majority of its lines (NMEA sentences or gpsd JSON reports); nil when
    /// it is none of these.
    public static func detect(_ prefix: some Collection<UInt8>) -> ActivityFormat? {
        if Gzip.isCompressed(prefix) {
            guard let inner = Gzip.decompressedPrefix(prefix, count: detectionPrefix), !Gzip.isCompressed(inner) else { return nil }
            return detect(inner)
        }
        if FITDecoder.looksLikeFIT(prefix) { return .fit }
        switch XMLRoot.localName(prefix) {
        case "gpx": return .gpx
        case "TrainingCenterDatabase": return .tcx
        default: break
        }
        switch TrackFormat.logFormat(prefix: prefix) {
        case .nmea?: return .nmea
        case .gpsd?: return .gpsd
        default: return nil
        }
    }

    /// A receiver log as one activity: every fix a sample. Refused when it holds no fix at all.
    private static func readLog(_ bytes: Data, file: String, format: TrackFormat) throws(ActivityFileError) -> RecordedActivity {
        var activity = RecordedActivity(format: format == .gpsd ? .gpsd : .nmea)
        var problems = 0
        let reader = TrackFileReader(data: bytes, file: file, format: format, providerID: "import")
        do {
            while try reader.nextBatch(onError: { error in
                problems += 1
                activity.warn(ActivityFileError(file: error.file, line: error.line, message: error.message))
            }, onFix: { activity.samples.append(RecordedSample($0)) }) {}
        } catch {
            throw ActivityFileError(file: file, line: error.line, message: error.message)
        }
        activity.skip("bad_lines", count: problems)
        activity.startTime = activity.samples.first?.time
        guard !activity.samples.isEmpty else {
            throw ActivityFileError(file: file, byteOffset: 0, message: """
                not a FIT, TCX or GPX file (it starts with \(describe(bytes.prefix(16)))), and read as \
                \(format == .gpsd ? "gpsd JSON" : "an NMEA log") it gives no time-stamped fix (\(problems) bad lines); \
                export the activity as FIT, TCX or GPX
                """)
        }
        return activity
    }

    /// The first bytes as text when they are printable, else as hex.
    private static func describe(_ bytes: Data) -> String {
        if let text = String(data: bytes, encoding: .utf8), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return "'\(text)'"
        }
        return bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
