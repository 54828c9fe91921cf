import Foundation

/// Runs a program (xmllint, zbarimg, Garmin's FIT SDK, the meridian binary…) to completion and collects what it
/// printed.
///
/// Tests that run in parallel use `run`: it waits on a thread of its own. Waiting for a child on one of the few
/// threads of Swift's concurrency pool (two on a two-core machine) stalls every server and client task of the test
/// process meanwhile, and other tests' requests then time out.
public enum ProgramRun {
    /// Runs `executable` (an absolute path, or a name looked up in PATH) with `arguments`, from `directory`, with
    /// `environment` (the test process's when `nil`), and returns its exit status and output once it exits.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) async throws -> MeridianBinary.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try blocking(executable, arguments, environment: environment, in: directory)
                    })
            }.start()
        }
    }

    /// `run`, waiting on the calling thread: for tests that run one at a time.
    public static func blocking(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) throws -> MeridianBinary.Result {
        guard let path = ManagedProcess.locate(executable) else {
            throw TestSupportError("'\(executable)' is not installed; run scripts/bootstrap")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error is read beside standard output, so that neither pipe can fill up and stop the program.
        let errors = Locked(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return MeridianBinary.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: errors.value, as: UTF8.self))
    }
}
