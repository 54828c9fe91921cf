import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

@testable import GPSDProvider

/// Short delays so that fault tests finish quickly; the default schedule is tested in `GPSDOptionsTests`.
let fastTiming = GPSDTiming(
    backoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(400)),
    probeAfter: .milliseconds(400))

@Suite("GPSDProvider with a real gpsd", .serialized)
struct GPSDProviderTests {
    @Test("fixes through gpsd 3.22 match the NMEA decoder on the same log (same times, positions within 1e-6°)")
    func matchesNMEADecoder() async throws {
        try await GPSDDaemon.withIdentified { pty, gpsd in
            let sentences = try TestData.nmeaSentences("nmea-rtk.log")
            var nmea = NMEAStreamDecoder(providerID: "nmea")
            let expected =
                (nmea.feed(Array(sentences.joined(separator: "\r\n").appending("\r\n").utf8)) + nmea.finish())
                .filter(\.hasPosition)
            #expect(expected.count > 100)

            let fixes = try await ProviderHarness.with(
                id: "gpsd-test",
                make: { GPSDProvider(options: GPSDOptions(port: gpsd.port), timing: fastTiming, context: $0) }
            ) { harness in
                try await ManagedProcess.waitUntil(timeout: 5, "the provider to connect") {
                    harness.health.state == .connected
                }
                try await pty.write(lines: sentences)
                try await ManagedProcess.waitUntil(timeout: 10, "\(expected.count) fixes") {
                    harness.fixes.filter(\.hasPosition).count >= expected.count
                }
                return harness.fixes.filter(\.hasPosition)
            }

            #expect(fixes.map(\.time) == expected.map(\.time))
            for (fix, reference) in zip(fixes, expected) {
                let (position, referencePosition) = (try #require(fix.coordinate), try #require(reference.coordinate))
                #expect(
                    abs(position.latitude - referencePosition.latitude) <= 1e-6, "\(ISO8601.string(from: fix.time))")
                #expect(
                    abs(position.longitude - referencePosition.longitude) <= 1e-6, "\(ISO8601.string(from: fix.time))")
                #expect(fix.providerID == "gpsd-test")
            }
        }
    }

    @Test("passes the provider conformance suite against a real gpsd, watching one device")
    func conformance() async throws {
        try await GPSDDaemon.withIdentified { pty, gpsd in
            let (writerPath, readerPath, port) = (pty.receiverEnd, pty.devicePath, gpsd.port)
            let writer = Task {
                try await PseudoTerminalPair.write(
                    lines: TestData.nmeaSentences("ublox-zed-f9p-nmea.log"), to: writerPath, interval: .milliseconds(2))
            }
            defer { writer.cancel() }

            let report = try await ProviderConformance.run(minimumFixes: 10) { context in
                GPSDProvider(options: GPSDOptions(port: port, device: readerPath), context: context)
            }
            #expect(report.violations.isEmpty, "\(report.violations)")
            #expect(report.finalHealth.counters["other_device"] == 0)
            #expect(report.fixes.contains { $0.satellitesUsed != nil && $0.horizontalAccuracy != nil })
        }
    }

    @Test("gpsd killed mid-stream and started again: reconnects within 5 s with the default backoff, fixes resume")
    func reconnectsAfterGPSDRestart() async throws {
        try await GPSDDaemon.withIdentified { pty, gpsd in
            let sentences = try TestData.nmeaSentences("nmea-rtk.log")
            let (firstHalf, secondHalf) = (Array(sentences[..<120]), Array(sentences[120...]))

            try await ProviderHarness.with(
                id: "gpsd-test", make: { GPSDProvider(options: GPSDOptions(port: gpsd.port), context: $0) }
            ) { harness in
                try await ManagedProcess.waitUntil(timeout: 5, "the provider to connect") {
                    harness.health.state == .connected
                }
                try await pty.write(lines: firstHalf)
                try await ManagedProcess.waitUntil(timeout: 5, "fixes before the restart") { harness.fixes.count >= 50 }

                gpsd.kill()
                try await ManagedProcess.waitUntil(timeout: 5, "the loss to be reported") {
                    harness.health.state == .disconnected
                }
                #expect(harness.health.message?.contains("127.0.0.1:\(gpsd.port)") == true)
                let before = harness.fixes.count
                try await gpsd.restart()
                try await gpsd.waitUntilIdentified(through: pty)
                try await ManagedProcess.waitUntil(timeout: 5, "reconnection") { harness.health.state == .connected }
                #expect((harness.health.counters["reconnects"] ?? 0) >= 1)

                try await pty.write(lines: secondHalf)
                try await ManagedProcess.waitUntil(timeout: 5, "fixes after the restart") {
                    harness.fixes.count >= before + 50
                }
                let lastTime = try #require(harness.fixes.last?.time)
                #expect(ISO8601.string(from: lastTime) > "2020-03-18T13:28:31")
            }
        }
    }

    @Test("gpsd not running: reported with the address tried, retried, and connected once gpsd starts")
    func gpsdNotRunning() async throws {
        let port = try FreePort.next()
        try await ProviderHarness.with(
            id: "gpsd-test", make: { GPSDProvider(options: GPSDOptions(port: port), timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "two failed attempts") {
                (harness.health.counters["connect_failures"] ?? 0) >= 2
            }
            let health = harness.health
            #expect(health.state == .disconnected || health.state == .connecting)
            let message = try #require(health.message)
            #expect(message.contains("127.0.0.1:\(port)"))

            try await GPSDDaemon.withIdentified(port: port) { _, _ in
                try await ManagedProcess.waitUntil(timeout: 5, "connection once gpsd runs") {
                    harness.health.state == .connected
                }
            }
        }
    }
}

@Suite("GPSDProvider against misbehaving servers")
struct GPSDFaultTests {
    private static let version =
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"
    private static let tpv =
        #"{"class":"TPV","mode":3,"time":"2024-05-01T07:30:00.000Z","lat":48.8584,"lon":2.2945}"# + "\n"

    @Test(
        "garbage, a 1 MB line and a close: no crash, errors counted, the line after the long one still decodes, reconnects"
    )
    func garbageAndHugeLine() async throws {
        var script = Array(Self.version.utf8)
        script += Array("\u{01}\u{02}not json at all {{{\n".utf8)
        script += [UInt8](repeating: UInt8(ascii: "x"), count: 1_048_576) + [UInt8(ascii: "\n")]
        script += Array(Self.tpv.utf8)
        let server = try await ScriptedServer(script: script)

        try await ProviderHarness.with(
            id: "gpsd-test",
            make: { GPSDProvider(options: GPSDOptions(port: server.port), timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "a second connection") { server.connections >= 2 }
            let counters = harness.health.counters
            #expect((counters["malformed"] ?? 0) >= 1)
            #expect((counters["overlong_lines"] ?? 0) >= 1)
            #expect(harness.fixes.count == 1, "\(counters)")
            #expect(harness.fixes.first?.coordinate?.latitude == 48.8584)
        }
        await server.stop()
    }

    @Test("a server that stops sending is probed with ?POLL;, then dropped and reconnected")
    func silentServer() async throws {
        let server = try await ScriptedServer(script: Array(Self.version.utf8), closeAfterScript: false)
        try await ProviderHarness.with(
            id: "gpsd-test",
            make: { GPSDProvider(options: GPSDOptions(port: server.port), timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "a reconnection after silence") { server.connections >= 2 }
            #expect((harness.health.counters["stalls"] ?? 0) >= 1)
        }
        await server.stop()
    }

    @Test("an unsupported protocol version is reported by name and retried")
    func unsupportedProtocol() async throws {
        let server = try await ScriptedServer(
            script: Array(#"{"class":"VERSION","release":"2.95","proto_major":2,"proto_minor":1}"#.utf8) + [10],
            closeAfterScript: false)
        try await ProviderHarness.with(
            id: "gpsd-test",
            make: { GPSDProvider(options: GPSDOptions(port: server.port), timing: fastTiming, context: $0) }
        ) { harness in
            try await ManagedProcess.waitUntil(timeout: 5, "the protocol to be reported") {
                harness.health.message?.contains("protocol 2.1") == true
            }
        }
        await server.stop()
    }
}
