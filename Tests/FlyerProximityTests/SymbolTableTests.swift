import MeridianCore
import Testing

@testable import FlyerProximity

@Suite("flyer texts compressed with a symbol table")
struct SymbolTableTests {
    /// Texts as flyers carry them: titles, sentences and addresses in several languages, and odd bytes.
    private static let sample: [String] = [
        "Boulangerie du Marché", "Fresh bread every morning from 7 am, croissants and pains au chocolat",
        "12 Rue de la République, 69002 Lyon", "Flohmarkt am Sonntag", "Jeden Sonntag von 8 bis 14 Uhr auf dem Platz",
        "Hauptstraße 5, 10115 Berlin", "Yoga in the park", "Free yoga class for beginners, bring your own mat",
        "Mercado de segunda mano", "Calle Mayor 3, 28013 Madrid", "Café & Bar — live music 🎷 on Fridays",
        "Lost cat: grey, answers to Mimi. Call 0612345678", "Garage sale: furniture, books, toys"
    ]

    private func roundTrip(_ table: SymbolTable, _ bytes: [UInt8]) -> [UInt8]? {
        var encoded: [UInt8] = []
        bytes.withUnsafeBytes { table.encode($0, into: &encoded) }
        return encoded.withUnsafeBytes { table.decode($0) { $0.map { [UInt8]($0) } } }
    }

    @Test("every text reads back byte for byte: trained ones, others, every byte value, empty ones")
    func roundTrips() {
        let table = SymbolTable.trained(on: Self.sample.map { Array($0.utf8) })
        var random = SeededRandom(seed: 31)
        var texts = Self.sample.map { Array($0.utf8) } + [[], [255], [255, 255, 0], Array(0...255)]
        texts += (0..<200).map { _ in
            (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        texts.append(Array("Unrelated words the table never saw: zygomorphic quixotry".utf8))
        for text in texts {
            #expect(roundTrip(table, text) == text)
            #expect(roundTrip(.empty, text) == text)
        }
    }

    @Test("texts like those it was trained on take well under the bytes they had")
    func compresses() {
        let texts = Self.sample.map { Array($0.utf8) }
        let table = SymbolTable.trained(on: texts)
        let plain = texts.reduce(0) { $0 + $1.count }
        var encoded: [UInt8] = []
        for text in texts { text.withUnsafeBytes { table.encode($0, into: &encoded) } }
        #expect(Double(encoded.count) < 0.6 * Double(plain), "\(encoded.count) of \(plain) bytes")
        #expect(!table.symbols.isEmpty && table.symbols.count <= 255)
        #expect(SymbolTable.trained(on: texts) == table, "the same sample gives the same table")
    }

    @Test("bytes that are not an encoding decode to nil, never past the table")
    func malformed() {
        let table = SymbolTable.trained(on: Self.sample.map { Array($0.utf8) })
        let unknown = UInt8(table.symbols.count)
        for bytes: [UInt8] in [[SymbolTable.escape], [0, SymbolTable.escape]] + (unknown < 255 ? [[unknown]] : []) {
            #expect(bytes.withUnsafeBytes { table.decode($0) { $0 == nil } }, "\(bytes)")
        }
    }

    @Test("a stored table is refused when its symbols do not fit their lengths")
    func storedTables() {
        #expect(SymbolTable(symbols: [0x41], lengths: [1]) != nil)
        #expect(SymbolTable(symbols: [0x4141], lengths: [1]) == nil, "bytes past the length")
        #expect(SymbolTable(symbols: [0x41], lengths: [0]) == nil)
        #expect(SymbolTable(symbols: [0x41], lengths: [9]) == nil)
        #expect(SymbolTable(symbols: [0x41, 0x42], lengths: [1]) == nil)
        #expect(
            SymbolTable(symbols: [UInt64](repeating: 0x41, count: 256), lengths: [UInt8](repeating: 1, count: 256))
                == nil)
    }
}
