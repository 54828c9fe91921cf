import Foundation
import MeridianTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `meridian serve` with its store on a disk that fills up (a small tmpfs): an import the disk refuses is a 503
/// `storage_full`, leaves no space taken behind, and the store takes the same import once there is room again.
@Suite("a full disk under meridian serve")
struct FullDiskTests {
    /// Bytes free for this process on the file system holding `path`.
    static func freeBytes(_ path: String) throws -> Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else {
            throw TestSupportError("statvfs \(path): \(String(cString: strerror(errno)))")
        }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    static func run(_ command: String, _ arguments: [String]) throws {
        let process = try ManagedProcess(command, arguments)
        process.waitUntilExit()
        guard process.exitStatus == 0 else {
            throw TestSupportError("\(command) \(arguments.joined(separator: " ")): \(process.output())")
        }
    }

    @Test(
        "an import the full disk refuses is a 503 storage_full and leaves no space taken",
        .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func refusedImportLeavesNothingBehind() async throws {
        let disk = try TestData.temporaryDirectory("meridian-full")
        try Self.run("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", disk.path])
        defer {
            try? Self.run("umount", [disk.path])
            try? FileManager.default.removeItem(at: disk)
        }
        let database = disk.appendingPathComponent("meridian.sqlite").path
        let served = try await ServedInstance(extraEnvironment: ["MERIDIAN_DB": database]) { _ in
            "http:\n  port: 0\nproviders: []\nconsumers:\n  - type: run-tracker\n"
        }
        defer { served.stop() }
        let fit = try Data(contentsOf: TestData.url("fit/fitparse__garmin-edge-500-activity.fit"))
        // Everything but 300 KB goes to a filler file; the import needs about 1.5 MB.
        let filler = disk.appendingPathComponent("filler")
        try Data(count: try Self.freeBytes(disk.path) - 300_000).write(to: filler)
        let freeBefore = try Self.freeBytes(disk.path)

        let refused = try await served.client.request(
            "POST", "/v1/runs/import", body: fit, contentType: "application/octet-stream")
        #expect(refused.status == 503, "\(refused.text)")
        let error = try #require(try refused.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "storage_full", "\(refused.text)")
        #expect((error["message"] as? String)?.contains("free space") == true, "\(refused.text)")
        #expect(refused.headers["retry-after"] != nil || refused.headers["Retry-After"] != nil)
        let freeAfter = try Self.freeBytes(disk.path)
        #expect(freeAfter >= freeBefore, "the refused import left \(freeBefore - freeAfter) bytes taken")
        let list = try await served.client.request("GET", "/v1/runs")
        #expect((try list.json()["runs"] as? [Any])?.isEmpty == true, "\(list.text)")

        try FileManager.default.removeItem(at: filler)
        let accepted = try await served.client.request(
            "POST", "/v1/runs/import", body: fit, contentType: "application/octet-stream")
        #expect(accepted.status == 201, "\(accepted.text)")
    }
}
