import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

/// Webhooks end to end: the real application (in process, or the `meridian` binary) delivering to
/// `scripts/webhook-receiver`, a Python `http.server` that checks signatures with Python's `hmac` and fails, stalls
/// or recovers on request.
@Suite(.serialized) struct WebhookTests {
    static let secret = "s3cret-for-the-receiver-0123"

    /// A `hooks:` entry for `url` (short retries, so that tests wait seconds rather than minutes).
    static func hook(
        _ id: String, url: String, events: String = "[flyer.*]", extra: [String] = []
    ) -> String {
        ([
            "  - id: \(id)", "    url: \(url)", "    events: \(events)", "    secret: \(secret)", "    timeout: 0.5",
            "    backoff: 0.05", "    backoff_max: 0.2"
        ] + extra.map { "    " + $0 }).joined(separator: "\n")
    }

    static func start(_ hooks: [String], store: TemporaryStore) async throws -> TestServer {
        try await TestServer.start(
            yaml: "hooks:\n" + hooks.joined(separator: "\n") + "\n", registry: PluginRegistry(), store: store.store)
    }

    static func publish(_ server: TestServer, _ count: Int, category: String = "cafe", from first: Int = 0) {
        for index in first..<(first + count) {
            server.host.events.publish(
                "flyer.enter", json: #"{"category":"\#(category)","flyer_id":"f\#(index)"}"#)
        }
    }

    static func waitFor(_ what: String, timeout: Double = 30, _ condition: () async throws -> Bool) async throws {
        try await ManagedProcess.waitUntil(timeout: timeout, what, condition)
    }

    /// The flyer ids of `requests`' payloads, first arrival of each event only.
    static func flyerOrder(_ requests: [WebhookReceiver.Request]) -> [String] {
        var seen: Set<String> = []
        return requests.filter { seen.insert($0.id).inserted }.compactMap { request in
            (try? JSONSerialization.jsonObject(with: Data(request.data.utf8)) as? [String: Any])?["flyer_id"]
                as? String
        }
    }

    @Test func deliversEveryEventSignedInOrderAsFiltered() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let receiver = try await WebhookReceiver(secret: Self.secret)
        let server = try await Self.start(
            [Self.hook("home", url: receiver.url(), extra: ["filter:", "  category: cafe"])], store: store)
        defer { Task { try? await server.stop() } }
        Self.publish(server, 40)
        Self.publish(server, 5, category: "bar", from: 100)
        server.host.events.publish("run.state", json: #"{"state":"running"}"#)
        try await Self.waitFor("40 deliveries") { receiver.delivered().count >= 40 }
        let delivered = receiver.delivered()
        #expect(delivered.count == 40)
        #expect(Self.flyerOrder(delivered) == (0..<40).map { "f\($0)" })
        #expect(delivered.allSatisfy { $0.signatureOk && $0.headerId == $0.id && $0.type == "flyer.enter" })
        #expect(Set(delivered.map(\.id)).count == 40)
        // Delivered events leave the outbox.
        try await Self.waitFor("an empty outbox") {
            try await store.store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM hooks_events") }
                == 0
        }
    }

    @Test func failingAndStallingReceiversRecoverWithoutHoldingUpOtherHooks() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let failing = try await WebhookReceiver(secret: Self.secret, mode: "fail")
        let stalled = try await WebhookReceiver(secret: Self.secret, mode: "stall")
        let server = try await Self.start(
            [Self.hook("failing", url: failing.url()), Self.hook("stalled", url: stalled.url())], store: store)
        defer { Task { try? await server.stop() } }
        Self.publish(server, 10)
        try await Self.waitFor("three refused attempts") { failing.requests().filter { $0.status == 503 }.count >= 3 }
        // Every attempt is the first event again, with its id.
        let refused = failing.requests().filter { $0.status == 503 }
        #expect(Set(refused.map(\.id)).count == 1)
        try await failing.setMode("ok")
        try await Self.waitFor("the failing hook's 10 events") { Self.flyerOrder(failing.delivered()).count == 10 }
        #expect(Self.flyerOrder(failing.delivered()) == (0..<10).map { "f\($0)" })
        #expect(failing.delivered().first?.id == refused.first?.id)
        // The stalled receiver has held up only its own hook.
        #expect(stalled.delivered().isEmpty)
        try await stalled.setMode("ok")
        try await Self.waitFor("the stalled hook's 10 events") { Self.flyerOrder(stalled.delivered()).count == 10 }
        #expect(Self.flyerOrder(stalled.delivered()) == (0..<10).map { "f\($0)" })
    }

    @Test func deadLettersAreListedAndSentAgainWithTheirIDs() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let receiver = try await WebhookReceiver(secret: Self.secret, mode: "fail")
        let server = try await Self.start(
            [Self.hook("home", url: receiver.url(), extra: ["max_age: 1"])], store: store)
        defer { Task { try? await server.stop() } }
        Self.publish(server, 3)
        var failed: [[String: Any]] = []
        try await Self.waitFor("three dead letters") {
            failed =
                try await server.client.request("GET", "/v1/hooks/failed").json()["failed"] as? [[String: Any]] ?? []
            return failed.count == 3
        }
        #expect(failed.allSatisfy { ($0["last_error"] as? String)?.contains("HTTP 503") == true })
        let list = try await server.client.request("GET", "/v1/hooks").json()
        let hook = (list["hooks"] as? [[String: Any]])?.first
        #expect(hook?["failed"] as? Int == 3)
        #expect((hook?["secret"] as? String)?.contains(Self.secret) == false)
        #expect((list["notice"] as? String)?.contains("leaves this machine") == true)
        try await receiver.setMode("ok")
        let retried = try await server.client.request("POST", "/v1/hooks/retry").json()
        #expect(retried["retried"] as? Int == 3)
        try await Self.waitFor("the three retried events") { Self.flyerOrder(receiver.delivered()).count == 3 }
        #expect(receiver.delivered().map(\.id) == failed.compactMap { $0["event_id"] as? String })
        #expect(Self.flyerOrder(receiver.delivered()) == ["f0", "f1", "f2"])
    }

    @Test func hooksAddedOverHTTPAreCheckedAndMasked() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let receiver = try await WebhookReceiver(secret: Self.secret)
        let server = try await Self.start([], store: store)
        defer { Task { try? await server.stop() } }
        for (body, expected) in [
            (
                #"{"url":"ftp://box/x","events":["flyer.enter"],"secret":"\#(Self.secret)"}"#,
                "url: 'ftp' URLs are refused"
            ),
            (
                #"{"url":"http://box/x","events":["flyer.enter"],"secret":"short"}"#,
                "secret: the secret has 5 characters"
            ),
            (
                #"{"url":"http://box/x","events":["fly er"],"secret":"\#(Self.secret)"}"#,
                "events: 'fly er' is not an event pattern"
            ),
            (#"{"url":"http://box/x","events":[],"secret":"\#(Self.secret)"}"#, "events: name at least one event"),
            (#"{"events":["x"],"secret":"\#(Self.secret)"}"#, "the hook is not valid")
        ] {
            let response = try await server.client.request("POST", "/v1/hooks", body: Data(body.utf8))
            #expect(response.status == 400, "\(body)")
            #expect(response.text.contains(expected), "\(response.text)")
        }
        let body = #"{"id":"box","url":"\#(receiver.url("/x"))","events":["*"],"secret":"\#(Self.secret)"}"#
        let created = try await server.client.request("POST", "/v1/hooks", body: Data(body.utf8))
        #expect(created.status == 201)
        #expect(!created.text.contains(Self.secret))
        #expect(try await server.client.request("POST", "/v1/hooks", body: Data(body.utf8)).status == 409)
        let ping = try await server.client.request("POST", "/v1/hooks/box/ping").json()
        try await Self.waitFor("the ping") { !receiver.delivered().isEmpty }
        #expect(receiver.delivered().first?.id == ping["event_id"] as? String)
        #expect(receiver.delivered().first?.type == "hook.ping")
        #expect(try await server.client.request("DELETE", "/v1/hooks/box").status == 204)
        #expect(try await server.client.request("DELETE", "/v1/hooks/box").status == 404)
    }

    /// In `directory`: a CA (`ca.pem`) and a certificate it signed for `address` (`receiver.pem`, key
    /// `receiver-key.pem`), as a home server's own CA would make them.
    static func privateCA(in directory: URL, for address: String) throws {
        func openssl(_ arguments: [String]) throws {
            let result = try MeridianBinary.run(arguments, in: directory, executable: "/usr/bin/openssl")
            guard result.status == 0 else { throw TestSupportError("openssl \(arguments[0]) failed: \(result.stderr)") }
        }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + curve + [
                "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Home CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"
            ])
        try openssl(["req"] + curve + ["-keyout", "receiver-key.pem", "-out", "receiver.csr", "-subj", "/CN=home"])
        try Data("subjectAltName=IP:\(address)\n".utf8).write(to: directory.appendingPathComponent("san.ext"))
        try openssl([
            "x509", "-req", "-in", "receiver.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-out", "receiver.pem", "-days", "2", "-extfile", "san.ext"
        ])
    }

    /// Runs `body` with a new store, an HTTPS receiver whose certificate (for `address`) a private CA signed, and the
    /// path of that CA's PEM file.
    static func withHTTPSReceiver(
        for address: String, _ body: (TemporaryStore, WebhookReceiver, String) async throws -> Void
    ) async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let folder = try TestData.temporaryDirectory("meridian-hook-ca")
        defer { try? FileManager.default.removeItem(at: folder) }
        try privateCA(in: folder, for: address)
        let receiver = try await WebhookReceiver(
            secret: secret,
            tls: (
                folder.appendingPathComponent("receiver.pem").path,
                folder.appendingPathComponent("receiver-key.pem").path
            ))
        try await body(store, receiver, folder.appendingPathComponent("ca.pem").path)
    }

    @Test func httpsReceiversWithTheirOwnCAAreTrustedOnlyWithItsFile() async throws {
        try await Self.withHTTPSReceiver(for: "127.0.0.1") { store, receiver, ca in
            #expect(receiver.url().hasPrefix("https://127.0.0.1:"))
            // The same receiver by the system's CAs (refused: its CA is not among them) and by its own CA's file.
            let server = try await Self.start(
                [
                    Self.hook("system", url: receiver.url("/system")),
                    Self.hook("home", url: receiver.url("/home"), extra: ["ca_file: \(ca)"])
                ], store: store)
            defer { Task { try? await server.stop() } }
            Self.publish(server, 3)
            try await Self.waitFor("three deliveries over HTTPS") { receiver.delivered(path: "/home").count >= 3 }
            #expect(Self.flyerOrder(receiver.delivered(path: "/home")) == ["f0", "f1", "f2"])
            #expect(receiver.delivered(path: "/home").allSatisfy { $0.signatureOk })
            #expect(receiver.requests().allSatisfy { $0.path == "/home" }, "nothing reached the receiver untrusted")
            try await Self.waitFor("the untrusted hook's error") {
                let hooks = try await server.client.request("GET", "/v1/hooks").json()["hooks"] as? [[String: Any]]
                let system = hooks?.first { $0["id"] as? String == "system" }
                return (system?["last_error"] as? String)?.lowercased().contains("certificate") == true
                    && system?["pending"] as? Int == 3
            }
            let hooks = try await server.client.request("GET", "/v1/hooks").json()["hooks"] as? [[String: Any]]
            #expect(hooks?.first { $0["id"] as? String == "home" }?["ca_file"] as? String == ca)
        }
    }

    @Test func aCertificateForAnotherAddressIsRefusedEvenFromTheTrustedCA() async throws {
        try await Self.withHTTPSReceiver(for: "10.0.0.1") { store, receiver, ca in
            let server = try await Self.start(
                [
                    Self.hook(
                        "home", url: receiver.url(), extra: ["ca_file: \(ca)"])
                ],
                store: store)
            defer { Task { try? await server.stop() } }
            Self.publish(server, 1)
            try await Self.waitFor("the hook's error or a delivery") {
                let hooks = try await server.client.request("GET", "/v1/hooks").json()["hooks"] as? [[String: Any]]
                return hooks?.first?["last_error"] is String || !receiver.requests().isEmpty
            }
            #expect(receiver.requests().isEmpty, "delivered to a certificate for another address")
            let hooks = try await server.client.request("GET", "/v1/hooks").json()["hooks"] as? [[String: Any]]
            let error = hooks?.first?["last_error"] as? String ?? ""
            #expect(error.contains("Hostname") && error.contains("certificate"), "\(error)")
        }
    }

    @Test func badHookConfigurationsAreRefusedByKey() throws {
        let url = "http://127.0.0.1:9/x"
        for (entry, expected) in [
            (Self.hook("a", url: "file:///etc/passwd"), "hooks[0].url: 'file' URLs are refused"),
            (Self.hook("a", url: url, events: "[]"), "hooks[0].events: name at least one event"),
            (Self.hook("a b", url: url), "hooks[0].id: 'a b' is not a hook id"),
            (Self.hook("a", url: url, extra: ["max_age: 0"]), "hooks[0].max_age: 0.0 is out of range"),
            (Self.hook("a", url: url, extra: ["filter: {}"]), "hooks[0].filter: names nothing"),
            (Self.hook("a", url: url) + "\n" + Self.hook("a", url: url), "hooks[1].id: duplicate id 'a'"),
            (Self.hook("a", url: url).replacingOccurrences(of: Self.secret, with: "short"), "hooks[0].secret"),
            (Self.hook("a", url: url, extra: ["ca_file: /etc/hostname"]), "hooks[0].ca_file: is for https:// URLs"),
            (
                Self.hook("a", url: "https://127.0.0.1:9/x", extra: ["ca_file: /nonexistent/ca.pem"]),
                "hooks[0].ca_file: cannot read '/nonexistent/ca.pem'"
            )
        ] {
            #expect(throws: ConfigError.self) { try ConfigLoader.parse("hooks:\n" + entry + "\n") }
            do {
                _ = try ConfigLoader.parse("hooks:\n" + entry + "\n")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        let refused = try MeridianBinary.run([
            "hooks", "add", "--db", "/nonexistent/x.sqlite", "--url", "gopher://x", "--event", "run.*"
        ])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--url: 'gopher' URLs are refused"), "\(refused.stderr)")
    }

    @Test func killDuringDeliveryThenRestartDeliversEveryEventID() async throws {
        let receiver = try await WebhookReceiver(secret: Self.secret, mode: "stall")
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("meridian.yaml")
        try "http:\n  port: 0\nstore:\n  path: meridian.sqlite\nhooks:\n\(Self.hook("k", url: receiver.url()))\n"
            .write(to: config, atomically: true, encoding: .utf8)
        var (process, _) = try await MeridianBinary.serve(config: config.path)
        let client = try ServedInstance.client(from: process.output())
        var ids: [String] = []
        for _ in 0..<50 {
            let ping = try await client.request("POST", "/v1/hooks/k/ping").json()
            ids.append(try #require(ping["event_id"] as? String))
        }
        // The first delivery is in flight, held by the receiver, when the service is killed.
        try await Self.waitFor("a delivery in flight") { receiver.requests().contains { $0.status == 0 } }
        process.send(SIGKILL)
        process.waitUntilExit()
        try await receiver.setMode("ok")
        (process, _) = try await MeridianBinary.serve(config: config.path)
        defer { process.stop() }
        try await Self.waitFor("every event after the restart") { Set(receiver.delivered().map(\.id)).count == 50 }
        var seen: Set<String> = []
        let firstArrivals = receiver.delivered().map(\.id).filter { seen.insert($0).inserted }
        #expect(firstArrivals == ids)
        let signed = receiver.delivered().allSatisfy { $0.signatureOk }
        #expect(signed)
    }
}
