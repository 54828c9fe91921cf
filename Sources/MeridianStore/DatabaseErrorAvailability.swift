import GRDB
import MeridianCore

/// SQLite's "busy", "read-only" and "full" answers reach the API as 503s: another writer holds the file past the
/// busy timeout, the store refuses writes (damage found, `PRAGMA query_only`; a read-only file), or the disk is full.
extension DatabaseError: StorageUnavailable {
    public var unavailability: (code: String, retryAfterSeconds: Int)? {
        switch resultCode.primaryResultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return ("database_busy", 1)
        case .SQLITE_READONLY: return ("database_unavailable", 5)
        case .SQLITE_FULL: return ("storage_full", 60)
        default: return nil
        }
    }
}

extension StoreError: StorageUnavailable {
    public var unavailability: (code: String, retryAfterSeconds: Int)? {
        switch self {
        case .busy: return ("database_busy", 1)
        case .damaged: return ("database_unavailable", 5)
        case .full: return ("storage_full", 60)
        default: return nil
        }
    }
}
