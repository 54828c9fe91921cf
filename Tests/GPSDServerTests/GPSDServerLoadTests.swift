import Foundation
import MeridianTesting
import Testing

@testable import GPSDServer

#if canImport(Glibc)
    import Glibc
#endif

/// Many watchers and a stuck one: nobody waits for the stuck client, which is disconnected and counted.
@Suite(.serialized) struct GPSDServerLoadTests {
    @Test func twoHundredWatchersGetEveryTPVAtTenFixesASecondWhileAStuckClientIsDropped() async throws {
        let fixes = try GPSDServerHarness.realFixes(400)
        try await withGPSDServer(maxClients: 256, clientBuffer: 4096) { server in
            let clients = try WatchingClients(count: 200, port: server.port)
            let stuck = try WatchingClients.stuck(port: server.port)
            defer { close(stuck) }
            try await ManagedProcess.waitUntil(timeout: 60, "201 clients") { server.server.hub.connectedCount == 201 }
            // Every client's WATCH must be in before the first fix, or it would miss it.
            try await Task.sleep(for: .milliseconds(500))
            let reading = Task { await clients.readUntilEach(has: 100, timeout: 120) }
            var sent = 0
            for fix in fixes {
                try server.send(fix)
                sent += 1
                try await Task.sleep(for: .milliseconds(100))
                if sent >= 100 { break }
            }
            let counts = await reading.value
            #expect(counts.allSatisfy { $0 == 100 }, "TPVs per client: \(Set(counts))")
            try await ManagedProcess.waitUntil(timeout: 60, "the stuck client to be dropped") {
                server.server.hub.droppedCount == 1
            }
            #expect(server.server.hub.connectedCount == 200)
        }
    }
}
