import Foundation
import GPSDProtocol
import Logging
import MeridianCore
import MeridianTesting
import Testing

@testable import GPSDServer

#if canImport(Glibc)
    import Glibc
#endif

/// gpsd's JSON protocol over a real socket: what gpsd's clients send and what they expect back.
@Suite(.serialized) struct GPSDServerProtocolTests {
    @Test func aWatcherGetsVersionDevicesWatchAndATPVPerFusedFix() async throws {
        let fixes = try GPSDServerHarness.realFixes(5)
        try await withGPSDServer { server in
            let client = try TestSocket(port: server.port)
            let greeting = try await client.read(until: "\r\n")
            #expect(greeting.hasPrefix(#"{"class":"VERSION","release":"Meridian \#(MeridianVersion.current)","rev":"#))
            #expect(greeting.hasSuffix(#""proto_major":3,"proto_minor":14}"# + "\r\n"))
            try await client.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
            _ = try await client.read(until: #""class":"WATCH""#)
            for fix in fixes { try server.send(fix) }
            let lines = try await client.readTPVs(5)
            #expect(Array(lines.classes.prefix(3)) == ["VERSION", "DEVICES", "WATCH"])
            let devices = try #require(lines.reports("DEVICES").first?["devices"] as? [[String: Any]])
            #expect(devices.compactMap { $0["path"] as? String } == ["primary", "backup"])
            #expect(lines.positions.map(\.latitude) == fixes.map { gpsdDegrees($0.coordinate?.latitude) })
            #expect(lines.positions.map(\.longitude) == fixes.map { gpsdDegrees($0.coordinate?.longitude) })
            #expect(lines.positions.allSatisfy { $0.device == "primary" })
            #expect(lines.reports("SKY").count == 5)
        }
    }

    @Test func pollDevicesVersionDeviceAndErrorsAnswerAsGpsdDoes() async throws {
        let fix = try #require(try GPSDServerHarness.realFixes(1).first)
        try await withGPSDServer { server in
            try server.send(fix)
            try await ManagedProcess.waitUntil(timeout: 30, "the fix") { server.server.hub.latest(device: nil) != nil }
            let client = try TestSocket(port: server.port)
            _ = try await client.read(until: "\r\n")
            try await client.send("?POLL;?VERSION;?DEVICES;?DEVICE;?NOTHING;\n")
            let answer = try await client.read(until: "Unrecognized")
            let lines = GPSDLines(Data(answer.utf8))
            #expect(lines.classes == ["VERSION", "POLL", "VERSION", "DEVICES", "DEVICE", "DEVICE", "ERROR"])
            let poll = try #require(lines.reports("POLL").first)
            #expect(
                (poll["tpv"] as? [[String: Any]])?.first?["lat"] as? Double == gpsdDegrees(fix.coordinate?.latitude))
            #expect(lines.reports("ERROR").first?["message"] as? String == "Unrecognized request '?NOTHING'")

            try await client.send(#"?WATCH={"enable":true,"device":"nowhere"};"# + "\n")
            _ = try await client.read(until: "No such device as nowhere")
            try await client.send(#"?WATCH={"enable":true,"colour":"red"};"# + "\n")
            _ = try await client.read(until: "Invalid WATCH: unknown attribute name")
            try await client.send(#"?DEVICE={"path":"primary","bps":9600};"# + "\n")
            _ = try await client.read(until: "read-only")
            try await client.send("?" + String(repeating: "A", count: GPSDRequest.maximumLength + 10))
            _ = try await client.read(until: "Request too long")
            try await client.send("\n?VERSION;\n")
            let after = try await client.read(until: "Request too long")
            let tail = after.components(separatedBy: "Request too long").last ?? ""
            #expect(tail.contains(#""class":"VERSION""#), "the connection still answers after an overlong request")
        }
    }

    @Test func aDeviceWatchStreamsThatProvidersOwnFixesWhileAnotherWins() async throws {
        let fixes = try GPSDServerHarness.realFixes(6)
        try await withGPSDServer { server in
            let client = try TestSocket(port: server.port)
            try await client.send(#"?WATCH={"enable":true,"json":true,"device":"backup"};"# + "\n")
            _ = try await client.read(until: #""class":"WATCH""#)
            for (index, fix) in fixes.enumerated() {
                try server.send(fix, from: index.isMultiple(of: 2) ? "primary" : "backup")
            }
            let lines = try await client.readTPVs(3)
            #expect(lines.positions.map(\.latitude) == [1, 3, 5].map { gpsdDegrees(fixes[$0].coordinate?.latitude) })
            #expect(lines.positions.allSatisfy { $0.device == "backup" })
            #expect(server.host.activeProvider() == "primary")
        }
    }

    @Test func whenTheWinnerGoesStaleTheTPVDeviceChangesWithoutReconnecting() async throws {
        let fixes = try GPSDServerHarness.realFixes(4)
        try await withGPSDServer(staleAfter: 0.5) { server in
            let client = try TestSocket(port: server.port)
            try await client.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
            _ = try await client.read(until: #""class":"WATCH""#)
            try server.send(fixes[0], from: "primary")
            try server.send(fixes[1], from: "backup")  // the primary is fresh: not fused
            _ = try await client.readTPVs(1)
            // The primary falls silent; after its stale_after the backup's fixes go through.
            try await ManagedProcess.waitUntil(timeout: 30, "the primary to go stale") {
                server.host.activeProvider() == nil
            }
            try server.send(fixes[2], from: "backup")
            try server.send(fixes[3], from: "backup")
            let lines = try await client.readTPVs(3)
            #expect(lines.positions.map(\.device) == ["primary", "backup", "backup"])
            #expect(lines.positions.map(\.latitude) == [0, 2, 3].map { gpsdDegrees(fixes[$0].coordinate?.latitude) })
        }
    }

    @Test func nmeaWatchersGetSynthesisedSentencesAndTheNMEAPortGetsGGARMCVTG() async throws {
        let fixes = try GPSDServerHarness.realFixes(3)
        try await withGPSDServer { server in
            let watcher = try TestSocket(port: server.port)
            try await watcher.send(#"?WATCH={"enable":true,"nmea":true};"# + "\n")
            _ = try await watcher.read(until: #""class":"WATCH""#)
            let port = try TestSocket(port: server.nmeaPort)
            try await ManagedProcess.waitUntil(timeout: 30, "both clients") { server.server.hub.connectedCount == 2 }
            for fix in fixes { try server.send(fix) }
            let watched = try await watcher.read(until: "$GPVTG", timeout: 30)
            let streamed = try await port.read(timeout: 30) {
                String(decoding: $0, as: UTF8.self).components(separatedBy: "$GPVTG").count > 3
            }.data
            let sentences = String(decoding: streamed, as: UTF8.self).split(separator: "\r\n")
            #expect(
                sentences.map { $0.prefix(6) }
                    == Array(repeating: ["$GPGGA", "$GPRMC", "$GPVTG"], count: 3).flatMap { $0 })
            #expect(watched.contains("$GPGSA") && !watched.contains(#""class":"TPV""#))
            for sentence in sentences { #expect(NMEAChecksum.isValid(sentence), "\(sentence)") }
        }
    }

    @Test func connectionsBeyondMaxClientsAreRefusedAndCounted() async throws {
        try await withGPSDServer(maxClients: 3) { server in
            var clients: [TestSocket] = []
            for _ in 0..<3 {
                let client = try TestSocket(port: server.port)
                _ = try await client.read(until: "VERSION")
                clients.append(client)
            }
            let extra = try TestSocket(port: server.nmeaPort)
            let (data, closed) = try await extra.readUntilClosed(timeout: 30)
            #expect(closed && data.isEmpty)
            #expect(server.server.hub.refusedCount == 1)
            clients.removeAll()  // closing them frees the slots
            try await ManagedProcess.waitUntil(timeout: 30, "the slots to free") {
                server.server.hub.connectedCount == 0
            }
            let again = try TestSocket(port: server.port)
            _ = try await again.read(until: "VERSION")
        }
    }
}

extension GPSDServerProtocolTests {
    @Test func aClientThatNeverAsksToWatchIsClosedAfterTheCommandTimeoutAWatcherIsNot() async throws {
        try await withGPSDServer(commandTimeout: .milliseconds(500)) { server in
            let silent = try TestSocket(port: server.port)
            let watcher = try TestSocket(port: server.port)
            try await watcher.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
            let (greeting, closed) = try await silent.readUntilClosed(timeout: 30)
            #expect(closed && String(decoding: greeting, as: UTF8.self).contains(#""class":"VERSION""#))
            try await ManagedProcess.waitUntil(timeout: 30, "the silent client's slot to free") {
                server.server.hub.connectedCount == 1
            }
            let (_, watcherClosed) = try await watcher.readUntilClosed(timeout: 1.5)
            #expect(!watcherClosed)
        }
    }

    @Test func aTakenPortStopsTheServerWithAMessageThatSaysWhatToDo() async throws {
        // The port a running gpsd server holds, as bound.
        try await withGPSDServer { running in try await refuses(port: running.port) }
    }

    private func refuses(port: Int) async throws {
        let options = try PluginOptions(yaml: "port: \(port)")
        let server = try #require(
            try GPSDServer.registration.make(options, PluginContext(id: "gpsd-server", logger: Logger(label: "test")))
                as? GPSDServer)
        await #expect(
            throws: PluginStartError(
                plugin: "gpsd-server",
                message:
                    "cannot listen on 127.0.0.1:\(port): the address is in use: another program (often gpsd itself: systemctl stop gpsd.socket gpsd) listens there; stop it or set port"
            )
        ) {
            try await server.run()
        }
    }
}

/// A coordinate as gpsd writes it: 9 decimals.
func gpsdDegrees(_ value: Double?) -> Double {
    ((value ?? .nan) * 1e9).rounded() / 1e9
}

/// NMEA checksum check for the tests: the XOR of the bytes between `$` and `*` equals the two hex digits after `*`.
enum NMEAChecksum {
    static func isValid(_ sentence: some StringProtocol) -> Bool {
        guard sentence.first == "$", let star = sentence.lastIndex(of: "*") else { return false }
        let body = sentence[sentence.index(after: sentence.startIndex)..<star]
        let given = sentence[sentence.index(after: star)...].prefix(2)
        return given == String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
    }
}
