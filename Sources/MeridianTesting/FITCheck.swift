import Foundation

/// Runs `scripts/fit-check` (Garmin's `garmin-fit-sdk` and `fitdecode`, pinned in `scripts/fit-tools-env` and
/// installed by `scripts/bootstrap`) on a FIT file and returns what each decoder found.
public struct FITCheck {
    /// Garmin's SDK: `check_integrity()` and the errors of `read()`.
    public var integrity: Bool
    public var garminErrors: [String]
    /// Message counts by the SDK's names (`record_mesgs`, `session_mesgs`, …).
    public var garminMessages: [String: Int]
    /// The first session's, each lap's and each event's fields as the SDK decodes them (scaled; enums by name).
    public var session: [String: Any]
    public var laps: [[String: Any]]
    public var events: [[String: Any]]
    /// fitdecode's errors (CRC checked) and message counts (`record`, `session`, …).
    public var fitdecodeErrors: [String]
    public var fitdecodeMessages: [String: Int]

    /// Checks `bytes`, written to a temporary file. Throws when the tools are missing (with how to install them).
    public static func run(_ bytes: [UInt8]) async throws -> FITCheck {
        let directory = try TestData.temporaryDirectory("fit-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.fit")
        try Data(bytes).write(to: file)
        let result = try await ProgramRun.run(
            "/bin/bash",
            [
                "-c",
                "source \"$1/scripts/fit-tools-env\" && exec \"$FIT_TOOLS_PYTHON\" \"$1/scripts/fit-check\" \"$2\"",
                "fit-check", TestData.repositoryRoot.path, file.path
            ])
        guard let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let garmin = json["garmin"] as? [String: Any], let fitdecode = json["fitdecode"] as? [String: Any]
        else {
            throw TestSupportError(
                "scripts/fit-check gave no result (exit \(result.status)): \(result.stderr)"
                    + " — garmin-fit-sdk and fitdecode are installed by scripts/bootstrap (see scripts/fit-tools-env)")
        }
        return FITCheck(
            integrity: garmin["integrity"] as? Bool ?? false, garminErrors: garmin["errors"] as? [String] ?? ["?"],
            garminMessages: garmin["messages"] as? [String: Int] ?? [:],
            session: garmin["session"] as? [String: Any] ?? [:], laps: garmin["laps"] as? [[String: Any]] ?? [],
            events: garmin["events"] as? [[String: Any]] ?? [],
            fitdecodeErrors: fitdecode["errors"] as? [String] ?? ["?"],
            fitdecodeMessages: fitdecode["messages"] as? [String: Int] ?? [:])
    }
}
