import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Prints `message` to stderr and exits with `code` (2 for bad configuration or usage, 1 otherwise).
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public var code: Int32

    /// The exit code of bad usage or configuration.
    public static let usage: Int32 = 2

    public init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning `CommandFailure`s and other errors into a stderr line and an exit code.
    /// The stores it opens through `StoreLocationOptions` are closed when it ends (`CommandStores`).
    public func reportingFailures(_ body: () async throws -> Void) async throws {
        let stores = CommandStores()
        defer { stores.closeAll() }
        do {
            try await CommandStores.$current.withValue(stores) { try await body() }
        } catch let failure as CommandFailure {
            Standard.error("meridian: \(failure.message)")
            throw ExitCode(failure.code)
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch {
            Standard.error("meridian: \(error)")
            throw ExitCode(1)
        }
    }
}

/// Writing to the standard streams.
public enum Standard {
    /// Writes `line` and a newline to standard error.
    public static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Flushes what `print` wrote through C's buffered standard output; a failed write (a full disk, a closed pipe)
    /// shows only then, and is thrown rather than lost.
    public static func flushPrinted() throws(CommandFailure) {
        guard fflush(nil) != 0 else { return }
        throw outputFailure()
    }

    /// Writes `bytes` to standard output as they are (no copy into `Data`), all of them unless writing fails.
    public static func output(_ bytes: UnsafeRawBufferPointer) throws(CommandFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw outputFailure()
            }
            offset += written
        }
    }

    /// The failure of a write to standard output, in the system's words (`errno`).
    private static func outputFailure() -> CommandFailure {
        CommandFailure("cannot write to standard output (\(String(cString: strerror(errno))))")
    }
}
