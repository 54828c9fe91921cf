import Foundation
import MeridianTesting

/// Runs the `meridian` executable built next to the test bundle.
enum MeridianBinary {
    /// `.build/<configuration>/meridian`, beside the test bundle.
    static let path: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("meridian").path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `meridian arguments…` (or another `executable`, such as openssl or curl) to completion from `directory`
    /// (the repository root by default).
    static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL = TestData.repositoryRoot,
                    executable: String = path) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        for key in ["MERIDIAN_CONFIG", "MERIDIAN_TOKEN", "MERIDIAN_DB", "MERIDIAN_SERVER"] { merged.removeValue(forKey: key) }
        merged.merge(environment) { $1 }
        process.environment = merged
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
