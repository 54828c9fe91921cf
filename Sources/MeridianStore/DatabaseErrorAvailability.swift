import GRDB
import MeridianCore

/// SQLite's "busy", "locked", "read-only" and "full" answers: another writer holds the file past the busy timeout,
/// the store refuses writes (damage found, `PRAGMA query_only`; a read-only file), or the disk is full.
extension DatabaseError: StorageUnavailable {
    public var refusal: StorageRefusal? {
        switch resultCode.primaryResultCode {
        case .SQLITE_BUSY: return .busy
        case .SQLITE_LOCKED: return .locked
        case .SQLITE_READONLY: return .readOnly
        case .SQLITE_FULL: return .full
        default: return nil
        }
    }
}

extension StoreError: StorageUnavailable {
    public var refusal: StorageRefusal? {
        switch self {
        case .busy: return .busy
        case .damaged: return .damaged
        case .full: return .full
        default: return nil
        }
    }
}
