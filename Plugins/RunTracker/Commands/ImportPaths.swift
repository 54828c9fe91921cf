import Foundation

/// The files `meridian runs import` reads: named files as they are, folders walked recursively for activity files.
enum ImportPaths {
    /// File name endings taken from folders (each also with `.gz`); named files are read whatever their name.
    static let activityExtensions: Set<String> = ["fit", "tcx", "gpx", "nmea", "log", "json", "jsonl"]

    /// The files under `paths` in order (each folder's files sorted by path); a path that does not exist is
    /// reported through `missing` with the reason.
    static func files(in paths: [String], missing: (String, String) -> Void) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                missing(path, "\(path): no such file or folder; check the path")
                continue
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let folder = URL(fileURLWithPath: path)
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
            var found: [String] = []
            while let url = walker?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, isActivityFile(url)
                else { continue }
                found.append(url.path)
            }
            files += found.sorted()
        }
        return files
    }

    /// Whether a file found in a folder looks like an activity file by its name (`run.fit`, `run.fit.gz`).
    static func isActivityFile(_ url: URL) -> Bool {
        let name = url.pathExtension.lowercased() == "gz" ? url.deletingPathExtension() : url
        return activityExtensions.contains(name.pathExtension.lowercased())
    }
}
