import Foundation

/// Picks the format of a file a command writes, so that a file never holds another format than its name says.
public enum OutputFormat {
    /// `given` (`--format`) when there is one, else the format `output`'s extension names (`extensions`, lowercase,
    /// without the dot), else `fallback` for standard output or a name without an extension. A format that disagrees
    /// with the extension, and an extension no format has, are usage errors (exit 2) naming the file.
    public static func choose<Format: RawRepresentable & Equatable>(
        given: Format?, output: String?, extensions: [String: Format], fallback: Format
    ) throws(CommandFailure) -> Format where Format.RawValue == String {
        let suffix = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
        guard let output, !suffix.isEmpty else { return given ?? fallback }
        let known = extensions.keys.sorted().map { ".\($0)" }.joined(separator: ", ")
        guard let named = extensions[suffix] else {
            throw CommandFailure(
                "\(output): this command writes \(known) files; name the file with one of these endings"
                    + (given == nil ? "" : " (--format \(given!.rawValue))"), code: CommandFailure.usage)
        }
        if let given, given != named {
            throw CommandFailure(
                "\(output): --format \(given.rawValue) does not match the file's ending .\(suffix); drop --format or rename the file",
                code: CommandFailure.usage)
        }
        return named
    }
}
