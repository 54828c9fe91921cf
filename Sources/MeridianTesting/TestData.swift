import Foundation

/// Locates the shared test data (`shared/data` beside the repository checkout).
public enum TestData {
    /// The repository root, found from this source file's location.
    public static let repositoryRoot: URL = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // MeridianTesting
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }()

    /// `../shared/data` relative to the repository root (override with `MERIDIAN_SHARED_DATA`).
    public static let sharedDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["MERIDIAN_SHARED_DATA"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// A file under the shared data directory, e.g. `url("nmea/garmin15x.log")`.
    public static func url(_ relativePath: String) -> URL {
        sharedDirectory.appendingPathComponent(relativePath)
    }

    /// Every file in a shared data folder whose name ends with `suffix`, sorted by name. Throws when there is none, so
    /// that a test over the shared files fails rather than passes with nothing checked when the data is missing
    /// (`@Test(arguments: try …)` records the error as the test's failure).
    public static func files(in folder: String, suffix: String) throws -> [URL] {
        let directory = sharedDirectory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let files = names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw TestSupportError(
                "no *\(suffix) file in \(directory.path): the shared test data is missing; put it in \(sharedDirectory.path) or set MERIDIAN_SHARED_DATA to its folder"
            )
        }
        return files
    }

    /// A fresh empty directory under the system temporary directory.
    public static func temporaryDirectory(_ label: String = "meridian") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
