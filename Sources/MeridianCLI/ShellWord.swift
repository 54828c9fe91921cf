/// Words of a command line the user can paste into a POSIX shell.
public enum ShellWord {
    /// `text` as it is when the shell leaves it alone, else in single quotes (`'it'\''s'`).
    public static func quoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_./:,=+@%".unicodeScalars.contains(scalar)
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
