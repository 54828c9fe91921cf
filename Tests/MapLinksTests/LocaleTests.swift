import Foundation
import MeridianCore
import Testing

@testable import MapLinkCore
@testable import MapLinks

#if canImport(Glibc)
    import Glibc
#endif

/// Map links must not change with the process locale, and their code must not use locale-sensitive formatting.
@Suite("Map links under a comma-decimal locale", .serialized)
struct LocaleTests {
    @Test("links are identical under de_DE (comma decimal separator)")
    func commaLocale() throws {
        let coordinate = try Coordinate(latitude: 48.8583701, longitude: -2.2944813)
        let builders = MapStyle.allCases.map { MapLinkBuilder(style: $0) }
        func links() throws -> [String] {
            try builders.map { try $0.url(to: .coordinate(coordinate, name: "Tour Eiffel", accuracy: 12.5)) }
        }
        let before = try links()
        let locale = try #require(
            try GermanLocale.activate(), "no de_DE locale could be made (localedef and the de_DE source are needed)")
        defer { GermanLocale.restore(locale) }
        // The locale really is active: C formatting now uses a comma.
        #expect(GermanLocale.cFormat(1.5) == "1,5")
        let during = try links()
        #expect(during == before)
        #expect(during.allSatisfy { $0.contains("48.85837") && $0.contains("-2.294481") && !$0.contains("48,85837") })
        #expect(try MapLinkBuilder(style: .geo).url(to: .coordinate(coordinate, accuracy: 12.5)).hasSuffix(";u=12.5"))
        #expect(NumberText.trimmed(0.5, decimals: 6) == "0.5")
    }

    @Test("the map-links sources (the plugin and MapLinkCore) use no locale-sensitive formatting")
    func noLocaleSensitiveCalls() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let files = try ["Plugins/MapLinks", "Sources/MapLinkCore"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(
                at: root.appendingPathComponent(folder).standardized, includingPropertiesForKeys: nil
            )
            .filter { $0.pathExtension == "swift" }
        }
        #expect(files.count > 10)
        let forbidden = [
            "String(format", "NumberFormatter", "Locale", "localizedString", "URLQueryItem", "description(with"
        ]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in forbidden {
                #expect(!text.contains(word), "\(file.lastPathComponent) uses \(word)")
            }
        }
    }
}

/// Makes a de_DE.UTF-8 locale available to this process and switches LC_NUMERIC to it.
enum GermanLocale {
    static let name = "de_DE.UTF-8"

    /// Switches LC_NUMERIC to de_DE; returns the previous LC_NUMERIC name, or nil when no de_DE locale can be made.
    static func activate() throws -> String? {
        let previous = String(cString: setlocale(LC_NUMERIC, nil))
        if setlocale(LC_NUMERIC, name) != nil { return previous }
        // Not installed: compile it into a private folder with localedef and point LOCPATH at it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-locale-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let localedef = Process()
        localedef.executableURL = URL(fileURLWithPath: "/usr/bin/localedef")
        localedef.arguments = ["-i", "de_DE", "-f", "UTF-8", folder.appendingPathComponent(name).path]
        localedef.standardOutput = FileHandle.nullDevice
        localedef.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: localedef.executableURL?.path ?? "") else { return nil }
        try localedef.run()
        localedef.waitUntilExit()
        setenv("LOCPATH", folder.path, 1)
        defer { unsetenv("LOCPATH") }
        return setlocale(LC_NUMERIC, name) != nil ? previous : nil
    }

    static func restore(_ previous: String) {
        setlocale(LC_NUMERIC, previous)
    }

    /// `value` printed by C's `%g`, which follows LC_NUMERIC.
    static func cFormat(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%g", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
