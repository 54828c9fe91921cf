import ArgumentParser
import Foundation

/// Prints `message` to stderr and exits with `code` (2 for bad configuration or usage, 1 otherwise).
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var code: Int32

    init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }

    var description: String { message }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning `CommandFailure`s and other errors into a stderr line and an exit code.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
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
enum Standard {
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
