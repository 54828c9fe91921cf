import Foundation
import MeridianCore

/// Collects events from a subscription with a deadline, so a test whose awaited event never comes fails
/// with what did come instead of waiting for ever.
public enum EventCollection {
    /// The first `count` events of `stream` that `include` admits, or fewer when `seconds` pass first.
    public static func first(
        _ count: Int, of stream: AsyncStream<MeridianEvent>, within seconds: Double = 30,
        where include: @escaping @Sendable (MeridianEvent) -> Bool = { _ in true }
    ) async -> [MeridianEvent] {
        let collected = Locked<[MeridianEvent]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in stream where include(event) {
                    let done = collected.withLock { events -> Bool in
                        events.append(event)
                        return events.count >= count
                    }
                    if done { return }
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
        return collected.value
    }
}
