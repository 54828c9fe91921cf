import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

@testable import NMEASerialProvider

/// Short reopening delays so that fault tests finish quickly; the default schedule is tested separately.
let fastTiming = SerialTiming(backoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(400)))

@Suite("NMEASerialProvider through a socat pseudo-terminal", .serialized)
struct NMEASerialProviderTests {
    @Test("sentences written on one end become the same fixes the NMEA decoder makes of them")
    func sentencesBecomeFixes() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        defer { pair.stop() }
        let sentences = try TestData.nmeaSentences("garmin15x.log")
        var reference = NMEAStreamDecoder(providerID: "serial-test")
        let expected = reference.feed(Array((sentences.joined(separator: "\r\n") + "\r\n").utf8)) + reference.finish()
        let referenceCounters = reference.counters.dictionary
        #expect(expected.count >= 7)

        let options = NMEASerialOptions(device: pair.devicePath, baud: 38_400)
        try await ProviderHarness.with(
            id: "serial-test", make: { NMEASerialProvider(options: options, timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "the device to be opened") {
                harness.health.state == .connected
            }
            try await PseudoTerminalPair.write(lines: sentences, to: pair.receiverEnd)
            try await ManagedProcess.waitUntil(timeout: 5, "\(expected.count) fixes") {
                harness.fixes.count >= expected.count
            }
            #expect(harness.fixes == expected)
            let counters = harness.health.counters
            for (name, value) in referenceCounters { #expect(counters[name] == value, "\(name)") }
        }
    }

    @Test("passes the provider conformance suite with a socat pseudo-terminal")
    func conformance() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        defer { pair.stop() }
        let device = pair.devicePath
        let writer = Task {
            try await pair.waitUntilDeviceIsOpen()
            try await pair.write(lines: TestData.nmeaSentences("nmea-rtk.log"))
        }
        defer { writer.cancel() }
        let report = try await ProviderConformance.run(id: "serial-test", minimumFixes: 20) { context in
            NMEASerialProvider(options: NMEASerialOptions(device: device), context: context)
        }
        #expect(report.violations.isEmpty, "\(report.violations)")
    }

    @Test("the device disappearing and coming back: reported, reopened without restarting, fixes resume")
    func reopensAfterDeviceReturns() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        defer { pair.stop() }
        let sentences = try TestData.nmeaSentences("nmea-rtk.log")
        let options = NMEASerialOptions(device: pair.devicePath)
        try await ProviderHarness.with(
            id: "serial-test", make: { NMEASerialProvider(options: options, timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "the device to be opened") {
                harness.health.state == .connected
            }
            try await PseudoTerminalPair.write(lines: Array(sentences[..<100]), to: pair.receiverEnd)
            try await ManagedProcess.waitUntil(timeout: 5, "fixes before the loss") { harness.fixes.count >= 40 }

            pair.stop()
            try await ManagedProcess.waitUntil(timeout: 5, "the loss to be reported") {
                harness.health.state == .disconnected && harness.health.message?.contains(pair.devicePath) == true
            }
            let before = harness.fixes.count
            try await pair.start()
            try await ManagedProcess.waitUntil(timeout: 5, "reopening") {
                harness.health.state == .connected && (harness.health.counters["reopens"] ?? 0) >= 1
            }
            try await PseudoTerminalPair.write(lines: Array(sentences[100...]), to: pair.receiverEnd)
            try await ManagedProcess.waitUntil(timeout: 5, "fixes after reopening") {
                harness.fixes.count >= before + 40
            }
        }
    }

    @Test("a missing device says which path was tried, keeps retrying, and is picked up when it appears")
    func missingDevice() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        let options = NMEASerialOptions(device: pair.devicePath)
        try await ProviderHarness.with(
            id: "serial-test", make: { NMEASerialProvider(options: options, timing: fastTiming, context: $0) }
        ) { harness in
            // The provider goes back to connecting between attempts: the message is read from the same snapshot
            // that shows the second failure reported.
            try await ManagedProcess.waitUntil(timeout: 5, "two failed attempts, the second reported") {
                let health = harness.health
                return health.state == .disconnected && (health.counters["open_failures"] ?? 0) >= 2
                    && health.message?.contains(pair.devicePath) == true
                    && health.message?.contains("does not exist") == true
            }

            try await pair.start()
            defer { pair.stop() }
            try await ManagedProcess.waitUntil(timeout: 5, "the device to be opened once it exists") {
                harness.health.state == .connected
            }
            try await PseudoTerminalPair.write(lines: TestData.nmeaSentences("garmin15x.log"), to: pair.receiverEnd)
            try await ManagedProcess.waitUntil(timeout: 5, "fixes") { harness.fixes.count >= 5 }
        }
    }

    @Test("a receiver that goes silent is reported after silence_timeout and reopened")
    func silentDevice() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        defer { pair.stop() }
        let options = NMEASerialOptions(device: pair.devicePath, silenceTimeout: 0.3)
        try await ProviderHarness.with(
            id: "serial-test", make: { NMEASerialProvider(options: options, timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "two silences") {
                (harness.health.counters["silences"] ?? 0) >= 2
            }
            #expect((harness.health.counters["reopens"] ?? 0) >= 1)
        }
    }

    @Test("init sentences are written to the receiver after opening, framed with $, checksum and CRLF")
    func initSentencesAreWritten() async throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = PseudoTerminalPair(directory: directory)
        try await pair.start()
        defer { pair.stop() }
        let options = NMEASerialOptions(device: pair.devicePath, initSentences: ["PMTK220,200", "$PMTK314,0,1,0,1*29"])
        // Opened before the provider starts, so nothing it writes is missed.
        let reader = try TerminalReader(path: pair.receiverEnd)
        let reading = Task { try await reader.read(for: .seconds(1)) }
        try await ProviderHarness.with(
            id: "serial-test", make: { NMEASerialProvider(options: options, timing: fastTiming, context: $0) }
        ) { harness in
            let written = try await reading.value
            #expect(String(decoding: written, as: UTF8.self) == "$PMTK220,200*2C\r\n$PMTK314,0,1,0,1*29\r\n")
        }
    }
}
