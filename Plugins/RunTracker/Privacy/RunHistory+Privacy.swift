import Foundation
import GRDB

extension RunHistory {
    /// The stored privacy zones, or none when `keepPrivate` (the owner asked for the whole route).
    package func privacyZones(keepPrivate: Bool = false) async throws -> PrivacyZones {
        guard !keepPrivate else { return .none }
        return try await store.database.read { db in try PrivacyZones.load(db) }
    }
}
