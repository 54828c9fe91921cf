import Foundation
import HTTPTypes
import Hummingbird
import MeridianCore

extension HTTPField.Name {
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}

/// `GET /v1/events` as Server-Sent Events: one `event:`/`id:`/`data:` block per bus event.
/// `?types=fix,flyer.enter` limits the stream to those event names (a trailing `.*` matches a prefix).
struct EventStream {
    let bus: EventBus
    let filter: String?

    func response() -> Response {
        let patterns = filter?.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } ?? []
        let bus = self.bus
        return Response(
            status: .ok,
            // `X-Accel-Buffering: no`: nginx passes each event on at once, even behind a plain `proxy_pass`.
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .xAccelBuffering: "no"],
            body: ResponseBody { writer in
                // Subscribed only once the body is written: a HEAD request never subscribes.
                let events = bus.subscribe()
                try await writer.write(ByteBuffer(string: ": meridian event stream\n\n"))
                for await event in events where Self.matches(event.name, patterns) {
                    try await writer.write(
                        ByteBuffer(string: "id: \(event.sequence)\nevent: \(event.name)\ndata: \(event.json)\n\n"))
                }
                try await writer.finish(nil)
            }
        )
    }

    static func matches(_ name: String, _ patterns: [String]) -> Bool {
        patterns.isEmpty || EventPattern.matches(name, patterns)
    }
}
