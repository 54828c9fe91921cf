import Foundation
import MeridianStore

/// A real SpatiaLite file in a fresh temporary folder, removed by `remove()`.
public struct TemporaryStore: Sendable {
    public let store: Store
    public let directory: URL

    /// Opens a new database file `meridian.sqlite` in a new temporary folder.
    public init() throws {
        directory = try TestData.temporaryDirectory("meridian-store")
        store = try Store.open(path: directory.appendingPathComponent("meridian.sqlite").path)
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
