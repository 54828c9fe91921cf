import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianTesting
import Testing

/// The store says what it met (`StorageRefusal`); the HTTP layer decides the status, code and `Retry-After`.
@Suite("Storage refusals as the API answers them")
struct StorageRefusalTests {
    /// What a store throws: a refusal, or (without one) an ordinary failure.
    private struct StoreFailure: StorageUnavailable, CustomStringConvertible {
        var refusal: StorageRefusal?
        var description: String { "the store said \(refusal?.rawValue ?? "something else")" }
    }

    /// A consumer whose `GET /v1/refusing/{kind}` throws what a store would.
    private struct Refusing: LocationConsumer, HTTPRoutes {
        let id = "refusing"
        func consume(_ fix: Fix) async {}

        func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
            v1.get("refusing/{kind}") { _, context -> String in
                throw StoreFailure(refusal: StorageRefusal(rawValue: context.parameters.get("kind") ?? ""))
            }
        }
    }

    @Test(
        "busy and locked are 503 database_busy (1 s), damaged and read-only database_unavailable (5 s), full storage_full (60 s)"
    )
    func answers() async throws {
        var registry = PluginRegistry()
        registry.register(ConsumerType(type: "refusing", summary: "", options: []) { _, _ in Refusing() })
        let server = try await TestServer.start(yaml: "consumers:\n  - {type: refusing}\n", registry: registry)
        let expected: [StorageRefusal: (code: String, retryAfter: String)] = [
            .busy: ("database_busy", "1"), .locked: ("database_busy", "1"), .damaged: ("database_unavailable", "5"),
            .readOnly: ("database_unavailable", "5"), .full: ("storage_full", "60")
        ]
        var answers: [StorageRefusal: HTTPTestClient.Response] = [:]
        for refusal in StorageRefusal.allCases {
            answers[refusal] = try await server.client.request("GET", "/v1/refusing/\(refusal.rawValue)")
        }
        let other = try await server.client.request("GET", "/v1/refusing/other")
        try await server.stop()
        for refusal in StorageRefusal.allCases {
            let answer = try #require(answers[refusal]), want = try #require(expected[refusal])
            #expect(
                answer.status == 503 && answer.headers["retry-after"] == want.retryAfter,
                "\(refusal): \(answer.status) \(answer.headers)")
            let error = try #require(try answer.json()["error"] as? [String: Any])
            #expect(error["code"] as? String == want.code, "\(refusal)")
            #expect(
                error["message"] as? String
                    == "the database cannot take this now (the store said \(refusal.rawValue)); try again in \(want.retryAfter) s"
            )
        }
        #expect(other.status == 500 && other.headers["retry-after"] == nil, "\(other.status) \(other.text)")
    }
}
