import Foundation
import MeridianCore
import MeridianStore

/// Flyers in SpatiaLite plus the in-memory index that answers searches: the one type behind
/// the plugin, the HTTP routes and the CLI. Writes go to the store first (one transaction),
/// then to the index, one writer at a time.
public final class FlyerCatalog: Sendable {
    public let repository: FlyerRepository
    public let index: FlyerIndex
    private let writer = NSLock()

    /// Opens the flyer table in `store` and loads every flyer into the index.
    public init(store: Store, cellSize: Double = 0.05) throws(FlyerCatalogError) {
        do {
            repository = try FlyerRepository(store: store)
        } catch {
            throw .store(error.description)
        }
        index = FlyerIndex(cellSize: cellSize)
        var batch: [Flyer] = []
        do {
            try repository.forEach { flyer in
                batch.append(flyer)
                if batch.count == 50_000 {
                    index.upsert(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            throw .store(error.description)
        }
        index.upsert(batch)
    }

    /// Adds new flyers (an id that exists already is an error) or, with `.upsert`, replaces them.
    /// Ids repeated within `flyers` are rejected, and then nothing is written.
    public func write(_ flyers: [Flyer], mode: FlyerRepository.WriteMode) throws(FlyerCatalogError) {
        writer.lock()
        defer { writer.unlock() }
        do {
            try repository.write(flyers, mode: mode)
        } catch {
            switch error {
            case .duplicateID(let id): throw .duplicateID(id)
            case .repeatedID(let id, let first, let second): throw .repeatedID(id, first: first, second: second)
            default: throw .store(error.description)
            }
        }
        index.upsert(flyers)
    }

    /// Deletes flyer `id`; false when there was none.
    public func delete(id: String) throws(FlyerCatalogError) -> Bool {
        writer.lock()
        defer { writer.unlock() }
        let deleted: Bool
        do {
            deleted = try repository.delete(id: id)
        } catch {
            throw .store(error.description)
        }
        index.remove(id: id)
        return deleted
    }

    /// The flyer with this id.
    public func flyer(id: String) -> Flyer? {
        index.flyer(id: id)
    }
}

/// Why a catalogue operation failed.
public enum FlyerCatalogError: Error, Equatable, CustomStringConvertible {
    /// Creating a flyer whose id exists already.
    case duplicateID(String)
    /// The same id twice in one batch (positions are 0-based).
    case repeatedID(String, first: Int, second: Int)
    case store(String)

    public var description: String {
        switch self {
        case .duplicateID(let id): return FlyerStoreError.duplicateID(id).description
        case .repeatedID(let id, let first, let second): return FlyerStoreError.repeatedID(id, first: first, second: second).description
        case .store(let detail): return detail
        }
    }
}
