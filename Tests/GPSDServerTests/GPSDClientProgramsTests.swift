import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import GPSDServer

/// Debian's own gpsd clients (`gpsd-clients`, `python3-gps`) and a real gpsd against Meridian's gpsd server.
@Suite(.serialized) struct GPSDClientProgramsTests {
    /// Sends `fixes` from the primary, one every `interval`, until `done` holds or the fixes run out.
    private func feed(
        _ server: GPSDServerHarness, _ fixes: [Fix], interval: Duration = .milliseconds(100),
        until done: () -> Bool
    ) async throws {
        for fix in fixes {
            if done() { return }
            try server.send(fix)
            try await Task.sleep(for: interval)
        }
    }

    @Test func gpspipeWatchingReceivesVersionDevicesWatchAndTheFusedTPVs() async throws {
        let fixes = try GPSDServerHarness.realFixes(60)
        try await withGPSDServer { server in
            let gpspipe = try ManagedProcess("gpspipe", ["-w", "-n", "20", "127.0.0.1:\(server.port)"])
            try await feed(server, fixes) { !gpspipe.isRunning }
            gpspipe.waitUntilExit()
            let lines = GPSDLines(Data(gpspipe.output().utf8))
            #expect(Array(lines.classes.prefix(3)) == ["VERSION", "DEVICES", "WATCH"], "\(gpspipe.output())")
            let sent = fixes.compactMap(\.coordinate)
            let received = lines.positions
            #expect(received.count >= 8)
            // Every TPV is one of the fused fixes, in the order they were sent, with the winner as its device.
            let start = try #require(sent.firstIndex { gpsdDegrees($0.latitude) == received.first?.latitude })
            for (offset, position) in received.enumerated() {
                #expect(position.latitude == gpsdDegrees(sent[start + offset].latitude))
                #expect(position.longitude == gpsdDegrees(sent[start + offset].longitude))
                #expect(position.device == "primary")
            }
        }
    }

    @Test func gpspipeRawReceivesNMEAWithValidChecksums() async throws {
        let fixes = try GPSDServerHarness.realFixes(60)
        try await withGPSDServer { server in
            let gpspipe = try ManagedProcess("gpspipe", ["-r", "-n", "24", "127.0.0.1:\(server.port)"])
            try await feed(server, fixes) { !gpspipe.isRunning }
            gpspipe.waitUntilExit()
            let sentences = gpspipe.output().split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }
            #expect(sentences.count >= 16, "\(gpspipe.output())")
            #expect(sentences.allSatisfy { NMEAChecksum.isValid($0) })
            #expect(Set(sentences.map { String($0.prefix(6)) }) == ["$GPGGA", "$GPRMC", "$GPGSA", "$GPVTG"])
        }
    }

    @Test func pythonGpsModuleReadsTheFixes() async throws {
        let fixes = try GPSDServerHarness.realFixes(60)
        try await withGPSDServer { server in
            let script = """
                import gps
                session = gps.gps(host="127.0.0.1", port="\(server.port)", mode=gps.WATCH_ENABLE)
                seen = 0
                while seen < 5:
                    report = session.next()
                    if report["class"] == "TPV" and "lat" in report:
                        print("%.9f %.9f %s %d" % (report.lat, report.lon, report.device, report.mode), flush=True)
                        seen += 1
                """
            let python = try ManagedProcess("/usr/bin/python3", ["-c", script])
            try await feed(server, fixes) { !python.isRunning }
            python.waitUntilExit()
            let printed = python.output().split(whereSeparator: \.isNewline).map { $0.split(separator: " ") }
            #expect(python.exitStatus == 0 && printed.count == 5, "\(python.output())")
            let sent = Set(fixes.compactMap { $0.coordinate.map { String(format: "%.9f", $0.latitude) } })
            for line in printed {
                #expect(sent.contains(String(line[0])))
                #expect(line[2] == "primary" && line[3] == "3")
            }
        }
    }

    @Test func gpxloggerWritesAGPXThatImportsToTheSameTrack() async throws {
        let fixes = try GPSDServerHarness.realFixes(991)
        let directory = try TestData.temporaryDirectory("gpxlogger")
        defer { try? FileManager.default.removeItem(at: directory) }
        let gpx = directory.appendingPathComponent("logged.gpx")
        try await withGPSDServer { server in
            let logger = try ManagedProcess(
                "gpxlogger", ["-e", "sockets", "-i", "600", "-f", gpx.path, "127.0.0.1:\(server.port)"])
            try await ManagedProcess.waitUntil(timeout: 30, "gpxlogger to watch") {
                server.server.hub.connectedCount >= 1
            }
            try await Task.sleep(for: .milliseconds(300))  // its WATCH goes in after the connection
            try await feed(server, fixes, interval: .milliseconds(2)) { false }
            let last = try #require(fixes.last?.coordinate)
            let lastLatitude = String(format: "%.9f", last.latitude)
            try await ManagedProcess.waitUntil(timeout: 30, "the last point in the GPX") {
                ((try? String(contentsOf: gpx, encoding: .utf8)) ?? "").contains(lastLatitude)
            }
            logger.stop()  // SIGTERM: gpxlogger closes the track and the file
        }
        // The same fixes written straight to GPX, with what gpxlogger keeps of them (position, elevation, time).
        let direct = directory.appendingPathComponent("direct.gpx")
        try Self.gpx(fixes).write(to: direct, atomically: true, encoding: .utf8)
        func imported(_ file: URL, _ name: String) throws -> [String: Any] {
            let result = try MeridianBinary.run([
                "runs", "import", "--db", directory.appendingPathComponent(name).path, "--json", file.path
            ])
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require((json?["imported"] as? [[String: Any]])?.first, "\(result.stdout)\(result.stderr)")
        }
        let expected = try imported(direct, "direct.sqlite")
        let logged = try imported(gpx, "logged.sqlite")
        let expectedDistance = try #require(expected["distance_m"] as? Double)
        let loggedDistance = try #require(logged["distance_m"] as? Double)
        #expect(expectedDistance > 10_000)
        #expect(logged["points"] as? Int == fixes.count)
        #expect(
            abs(loggedDistance - expectedDistance) / expectedDistance <= 0.001,
            "gpxlogger's track: \(logged), the fixes sent: \(expected)")
    }

    /// `fixes` as one GPX 1.1 track segment.
    private static func gpx(_ fixes: [Fix]) -> String {
        let points = fixes.compactMap { fix in
            fix.coordinate.map { coordinate in
                #"<trkpt lat="\#(String(format: "%.9f", coordinate.latitude))" lon="\#(String(format: "%.9f", coordinate.longitude))">"#
                    + (fix.altitudeMSL.map { "<ele>\(String(format: "%.3f", $0))</ele>" } ?? "")
                    + "<time>\(ISO8601.string(from: fix.time))</time></trkpt>"
            }
        }
        return
            #"<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + points.joined(separator: "\n") + "</trkseg></trk></gpx>\n"
    }

    @Test func cgpsInTmuxShowsThePosition() async throws {
        let fixes = try GPSDServerHarness.realFixes(80)
        try await withGPSDServer { server in
            let session = "meridian-cgps-\(server.port)"
            let tmux = try ManagedProcess(
                "tmux",
                [
                    "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    "cgps -s 127.0.0.1:\(server.port)"
                ])
            tmux.waitUntilExit()
            defer { _ = try? ManagedProcess("tmux", ["kill-session", "-t", session]).waitUntilExit() }
            let latitudes = fixes.compactMap { $0.coordinate.map { String(format: "%.6f", $0.latitude) } }
            var screen = ""
            try await feed(server, fixes) {
                let capture = try? ManagedProcess("tmux", ["capture-pane", "-p", "-t", session])
                capture?.waitUntilExit()
                screen = capture?.output() ?? ""
                return latitudes.contains { screen.contains($0) }
            }
            #expect(latitudes.contains { screen.contains($0) }, "cgps showed:\n\(screen)")
            #expect(screen.contains("3D") && screen.contains("FIX"), "cgps showed:\n\(screen)")
        }
    }

    @Test func aRealGpsdReadingTheNMEAPortGivesItsClientsTheSamePositions() async throws {
        let fixes = try GPSDServerHarness.realFixes(60)
        try await withGPSDServer { server in
            let gpsdPort = try FreePort.next()
            let gpsd = try ManagedProcess(
                "gpsd", ["-N", "-n", "-b", "-S", "\(gpsdPort)", "tcp://127.0.0.1:\(server.nmeaPort)"])
            defer { gpsd.stop() }
            try await ManagedProcess.waitUntil(timeout: 60, "gpsd on \(gpsdPort)") {
                guard gpsd.isRunning else { throw TestSupportError("gpsd exited: \(gpsd.output())") }
                return GPSDServerHarness.acceptsConnections(port: gpsdPort)
            }
            try await ManagedProcess.waitUntil(timeout: 60, "gpsd to connect") { server.server.hub.connectedCount >= 1 }
            let gpspipe = try ManagedProcess("gpspipe", ["-w", "-n", "25", "127.0.0.1:\(gpsdPort)"])
            try await feed(server, fixes, interval: .milliseconds(200)) { !gpspipe.isRunning }
            gpspipe.waitUntilExit()
            let received = GPSDLines(Data(gpspipe.output().utf8)).positions
            #expect(received.count >= 5, "\(gpspipe.output())")
            let sent = fixes.compactMap(\.coordinate)
            for position in received {
                #expect(
                    sent.contains {
                        abs($0.latitude - position.latitude) <= 1e-6 && abs($0.longitude - position.longitude) <= 1e-6
                    },
                    "gpsd's \(position.latitude), \(position.longitude) is none of the fixes sent")
            }
        }
    }
}
