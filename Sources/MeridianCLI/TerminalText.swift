/// Text laid out in columns for a terminal: widths are counted in terminal cells (East Asian wide characters
/// and emoji take two, combining marks none), text is cut only between characters, and control characters
/// (a line break in a title) are shown as spaces so that a row stays one line.
public enum TerminalText {
    /// Rows as columns separated by two spaces, each column as wide as its widest cell (the last not padded).
    public static func table(_ rows: [[String]]) -> [String] {
        let cells = rows.map { $0.map(oneLine) }
        let columns = cells.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            cells.map { $0.indices.contains(column) ? width($0[column]) : 0 }.max() ?? 0
        }
        return cells.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - width(text))
            }.joined(separator: "  ")
        }
    }

    /// `text` cut to at most `cells` terminal cells, ending in "…" when cut.
    public static func shortened(_ text: String, to cells: Int) -> String {
        guard width(text) > cells else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            guard used + next <= cells - 1 else { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The number of terminal cells `text` takes.
    public static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` with control characters as spaces.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(text.map { $0.unicodeScalars.first?.properties.generalCategory == .control ? " " : $0 })
    }

    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) || isWide(first.value)
        {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
