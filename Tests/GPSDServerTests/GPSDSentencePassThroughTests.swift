import Foundation
import Logging
import MeridianCore
import MeridianTesting
import ReplayProvider
import ServiceLifecycle
import Testing

@testable import GPSDServer

/// `"nmea":true` / `gpspipe -r`: an NMEA receiver's own sentences pass through as received; other providers' fixes
/// are synthesised into sentences.
@Suite(.serialized) struct GPSDSentencePassThroughTests {
    private static let log = "nmea/aerorust-nmea_with_sat_info.log"
    private static let track = "gpx/sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx"

    @Test func gpspipeRawReceivesTheReceiversOwnSentencesAsTheLogHasThem() async throws {
        let lines = try Self.validLines(Self.log)
        // Each received sentence must follow the one before it in the log (replayed in a loop).
        var successors = Set<String>()
        for (line, next) in zip(lines, lines.dropFirst() + [lines[0]]) { successors.insert(line + "\n" + next) }
        try await withReplayServer(["{id: receiver, type: replay, file: '\(path(Self.log))', speed: 10, loop: true}"]) {
            port in
            let gpspipe = try ManagedProcess("gpspipe", ["-r", "-n", "80", "127.0.0.1:\(port)"])
            try await ManagedProcess.waitUntil(timeout: 60, "gpspipe to finish") { !gpspipe.isRunning }
            let received = gpspipe.output().split(whereSeparator: \.isNewline).map(String.init).filter {
                $0.hasPrefix("$")
            }
            #expect(received.count >= 60, "\(gpspipe.output())")
            #expect(received.allSatisfy { NMEAChecksum.isValid($0) })
            #expect(Set(received).isSubset(of: Set(lines)), "\(received.filter { !lines.contains($0) })")
            #expect(received.contains { $0.hasPrefix("$GPGSV") } && received.contains { $0.hasPrefix("$GNGSA") })
            for (line, next) in zip(received, received.dropFirst()) {
                #expect(successors.contains(line + "\n" + next), "\(next) does not follow \(line) in the log")
            }
        }
    }

    @Test func gpspipeRawReceivesSynthesisedSentencesForAProviderWithoutSentences() async throws {
        try await withReplayServer(["{id: track, type: replay, file: '\(path(Self.track))', speed: 20, loop: true}"]) {
            port in
            let gpspipe = try ManagedProcess("gpspipe", ["-r", "-n", "24", "127.0.0.1:\(port)"])
            try await ManagedProcess.waitUntil(timeout: 60, "gpspipe to finish") { !gpspipe.isRunning }
            let received = gpspipe.output().split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }
            #expect(received.count >= 16, "\(gpspipe.output())")
            #expect(received.allSatisfy { NMEAChecksum.isValid($0) })
            #expect(Set(received.map { String($0.prefix(6)) }) == ["$GPGGA", "$GPRMC", "$GPGSA", "$GPVTG"])
        }
    }

    @Test func aDeviceWatchGetsThatReceiversSentencesWhileTheFusedStreamFollowsTheWinner() async throws {
        let lines = Set(try Self.validLines(Self.log))
        try await withReplayServer([
            "{id: receiver, type: replay, priority: 1, file: '\(path(Self.log))', speed: 10, loop: true}",
            "{id: track, type: replay, priority: 10, stale_after: 30, file: '\(path(Self.track))', speed: 20, loop: true}"
        ]) { port in
            let device = try TestSocket(port: port)
            try await device.send(#"?WATCH={"enable":true,"nmea":true,"device":"receiver"};"# + "\n")
            let own = try await device.read(until: "$GPGSV").split(whereSeparator: \.isNewline).filter {
                $0.hasPrefix("$")
            }
            #expect(!own.isEmpty && own.allSatisfy { lines.contains(String($0)) }, "\(own)")
            // By now the track has sent fixes and wins the fusion.
            let fused = try TestSocket(port: port)
            try await fused.send(#"?WATCH={"enable":true,"nmea":true};"# + "\n")
            // The GPX track wins: its fixes, synthesised, and none of the receiver's sentences.
            let (data, _) = try await fused.read(timeout: 30) {
                String(decoding: $0, as: UTF8.self).components(separatedBy: "$GPVTG").count > 5
            }
            let synthesised = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).filter {
                $0.hasPrefix("$")
            }
            #expect(synthesised.count >= 16)
            #expect(Set(synthesised.map { String($0.prefix(6)) }) == ["$GPGGA", "$GPRMC", "$GPGSA", "$GPVTG"])
            #expect(!synthesised.contains { lines.contains(String($0)) })
        }
    }

    private func path(_ name: String) -> String { TestData.url(name).path }

    /// The log's sentences with a valid checksum, in order.
    private static func validLines(_ name: String) throws -> [String] {
        let text = try String(contentsOf: TestData.url(name), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { NMEAChecksum.isValid($0) }
    }
}

/// Runs `body` with the port of a gpsd-server (port 0) in a host whose providers are the `replay` entries given.
private func withReplayServer<T>(_ providers: [String], _ body: (Int) async throws -> T) async throws -> T {
    var registry = PluginRegistry()
    registry.register(ReplayProvider.registration)
    registry.register(GPSDServer.registration)
    let yaml =
        "providers:\n" + providers.map { "  - \($0)\n" }.joined() + "consumers:\n  - {type: gpsd-server, port: 0}\n"
    let host = try PluginHost(config: try ConfigLoader.parse(yaml), registry: registry, logger: Logger(label: "test"))
    let server = try #require(host.consumers.first?.consumer as? GPSDServer)
    let group = ServiceGroup(
        configuration: .init(services: host.services, gracefulShutdownSignals: [], logger: Logger(label: "test")))
    let running = Task { try await group.run() }
    do {
        try await ManagedProcess.waitUntil(timeout: 30, "gpsd-server to listen") { !server.listeningPorts.isEmpty }
        let result = try await body(server.listeningPorts[0])
        await group.triggerGracefulShutdown()
        try await running.value
        return result
    } catch {
        await group.triggerGracefulShutdown()
        try? await running.value
        throw error
    }
}
