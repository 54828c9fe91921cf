import Foundation
import MeridianCore

/// Decodes gpsd's JSON stream (`?WATCH={"json":true}` or a `gpspipe -w` log) into fixes.
///
/// Pure: no I/O. Feed one line at a time (without the newline). gpsd sends
/// several cumulative TPV reports per epoch; they are merged by time, and an
/// epoch is emitted when a TPV with a different time arrives or when
/// `finish()` is called (at the end of input, or after a quiet period when live).
/// SKY supplies the satellites used, GST an accuracy fallback.
public struct GPSDStreamDecoder: Sendable {
    /// The protocol major revisions this decoder understands.
    public static let supportedProtocols: Set<Int> = [3, 16]

    /// Only reports from this device are used when set.
    public let device: String?
    /// The daemon's VERSION, once seen.
    public private(set) var version: GPSDVersion?
    /// The message of the last ERROR report.
    public private(set) var lastGPSDError: String?
    /// Paths of the devices gpsd reports as active.
    public private(set) var activeDevices: Set<String> = []
    /// What the decoder counts, each listed from the start at 0.
    public static let counterNames = [
        "lines", "tpv", "sky", "gst", "fixes", "no_fix", "malformed", "unknown_class", "gpsd_errors",
        "repeated_tpv", "tpv_without_time", "other_device", "invalid_position", "unsupported_protocol"
    ]
    /// Named counters (`counterNames`).
    public private(set) var counters = Dictionary(uniqueKeysWithValues: counterNames.map { ($0, 0) })

    /// The epoch being merged, with the SKY/GST data that belongs to it.
    private struct Epoch {
        var tpv: GPSDTPV
        var satellitesUsed: Int?
        var gst: GPSDGST?
        var time: Date? { tpv.time?.date }
    }

    private let builder: GPSDFixBuilder
    private var pending: Epoch?
    private var lastEmittedTime: Date?
    /// The latest SKY/GST values; an epoch takes them when it opens (gpsd sends SKY before the epoch's TPV).
    private var satellitesUsed: Int?
    private var latestGST: GPSDGST?

    public init(providerID: String, device: String? = nil) {
        self.builder = GPSDFixBuilder(providerID: providerID)
        self.device = device
    }

    /// True while TPV reports of an epoch are waiting to be merged with more.
    public var hasPendingEpoch: Bool { pending != nil }

    /// Decodes one JSON line (without its newline) and returns the epochs it completed.
    /// Blank lines are skipped; unknown classes and keys are ignored.
    public mutating func feed(line: some Collection<UInt8>) throws(GPSDDecodeError) -> [Fix] {
        guard line.contains(where: { !Self.isSpace($0) }) else { return [] }
        count("lines")
        let report: GPSDReport
        do {
            report = try JSONDecoder().decode(GPSDReport.self, from: Data(line))
        } catch {
            count("malformed")
            throw .malformedJSON(excerpt: GPSDDecodeError.excerpt(of: line), reason: GPSDDecodeError.reason(for: error))
        }
        return try accept(report)
    }

    /// Emits the epoch still being merged (end of input, or a quiet period on a live stream).
    public mutating func finish() -> [Fix] {
        guard let epoch = pending else { return [] }
        pending = nil
        guard let time = epoch.time else {
            count("tpv_without_time")
            return []
        }
        lastEmittedTime = time
        switch builder.build(epoch.tpv, time: time, satellitesUsed: epoch.satellitesUsed, gst: epoch.gst) {
        case .fix(let fix):
            count(fix.hasPosition ? "fixes" : "no_fix")
            return [fix]
        case .invalidPosition(let fix):
            count("invalid_position")
            return [fix]
        }
    }

    private mutating func accept(_ report: GPSDReport) throws(GPSDDecodeError) -> [Fix] {
        switch report {
        case .version(let version):
            self.version = version
            guard Self.supportedProtocols.contains(version.protoMajor) else {
                count("unsupported_protocol")
                throw .unsupportedProtocol(
                    major: version.protoMajor, minor: version.protoMinor, release: version.release)
            }
            return []
        case .tpv(let tpv):
            return accept(tpv)
        case .sky(let sky):
            accept(sky)
            return []
        case .gst(let gst):
            accept(gst)
            return []
        case .poll(let poll):
            poll.gst?.forEach { accept($0) }
            poll.sky?.forEach { accept($0) }
            return (poll.tpv ?? []).flatMap { accept($0) }
        case .devices(let devices):
            activeDevices = Set(devices.filter { $0.activated?.isActive ?? true }.compactMap(\.path))
            return []
        case .device(let device):
            if let path = device.path {
                if device.activated?.isActive == false {
                    activeDevices.remove(path)
                } else {
                    activeDevices.insert(path)
                }
            }
            return []
        case .error(let message):
            count("gpsd_errors")
            lastGPSDError = message
            return []
        case .watch:
            return []
        case .other:
            count("unknown_class")
            return []
        }
    }

    private mutating func accept(_ tpv: GPSDTPV) -> [Fix] {
        count("tpv")
        guard isWatched(tpv.device) else { return [] }
        guard let time = tpv.time?.date else {
            // A TPV without time (no date yet) opens an epoch that a later timed TPV completes.
            let completed = pending?.time != nil ? finish() : []
            merge(tpv)
            return completed
        }
        if time == lastEmittedTime {
            count("repeated_tpv")  // a POLL answer or a straggler of an epoch already emitted
            return []
        }
        if let currentTime = pending?.time, currentTime != time {
            let completed = finish()
            merge(tpv)
            return completed
        }
        merge(tpv)
        return []
    }

    /// Adds `tpv` to the pending epoch, opening one (with the latest SKY/GST) if there is none.
    private mutating func merge(_ tpv: GPSDTPV) {
        if let current = pending {
            pending?.tpv = current.tpv.merged(with: tpv)
        } else {
            pending = Epoch(tpv: tpv, satellitesUsed: satellitesUsed, gst: latestGST)
        }
    }

    /// True when a SKY/GST stamped `time` belongs to the pending epoch.
    private func belongsToPending(_ time: GPSDTime?) -> Bool {
        guard let time, let pendingTime = pending?.time else { return false }
        return time.date == pendingTime
    }

    private mutating func accept(_ sky: GPSDSky) {
        count("sky")
        guard isWatched(sky.device), let used = sky.satellitesUsed else { return }
        satellitesUsed = used
        if belongsToPending(sky.time) { pending?.satellitesUsed = used }
    }

    private mutating func accept(_ gst: GPSDGST) {
        count("gst")
        guard isWatched(gst.device) else { return }
        latestGST = gst
        if belongsToPending(gst.time) { pending?.gst = gst }
    }

    private mutating func isWatched(_ reportDevice: String?) -> Bool {
        guard let device, let reportDevice, reportDevice != device else { return true }
        count("other_device")
        return false
    }

    private mutating func count(_ name: String) {
        counters[name, default: 0] += 1
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
