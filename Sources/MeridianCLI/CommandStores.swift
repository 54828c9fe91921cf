import MeridianStore
import Synchronization

/// The stores a command opened (`StoreLocationOptions`), closed when it ends (`reportingFailures`): a clean close
/// empties the write-ahead log and, when the file was as a checked service left it, stamps it again, so that
/// the service's next start can trust it (`VerifiedStamp`) as after its own clean stop.
final class CommandStores: Sendable {
    /// The stores of the command running in this task.
    @TaskLocal static var current: CommandStores?
    private let stores = Mutex<[Store]>([])

    /// Notes `store` for the running command, if any; returns it.
    static func opened(_ store: Store) -> Store {
        current?.stores.withLock { $0.append(store) }
        return store
    }

    /// Closes every store noted (a store closed already is left as it is).
    func closeAll() {
        for store in stores.withLock({ $0 }) { store.close() }
    }
}
