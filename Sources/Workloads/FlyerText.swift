import FlyerProximity
import Foundation
import MeridianCore

/// Text for generated flyers, for the text search benchmark: a title of two words (a kind of place and a
/// name), a description of eight words and an address, drawn from vocabularies with a few accented words and a
/// long tail (word `k` of a list about `1/k` as often as the first), so that query words range from common to
/// rare. Seeded per flyer, apart from the positions' sequence.
package enum FlyerText {
    static let kinds = [
        "Café", "Boulangerie", "Pâtisserie", "Librairie", "Marché", "Brocante", "Épicerie", "Fromagerie", "Crêperie",
        "Bistro", "Garage", "Pharmacie", "Atelier", "Galerie", "Cinéma", "Théâtre", "Musée", "Concert", "Vide-grenier",
        "Fleuriste"
    ]
    static let streets = ["Rue", "Avenue", "Boulevard", "Place", "Allée", "Quai", "Impasse", "Chemin"]
    static let syllables = [
        "ba", "be", "bi", "bo", "ca", "ce", "co", "da", "de", "do", "fa", "fe", "ga", "go", "la", "le", "li", "lo",
        "ma", "me", "mi", "mo", "na", "ne", "no", "pa", "pe", "po", "ra", "re", "ri", "ro", "sa", "se", "so", "ta",
        "te", "to", "va", "ve", "vo", "zé", "lu", "mè", "rô"
    ]

    /// `flyer` with a title, description and address made for its number.
    package static func described(_ flyer: Flyer, number: Int, seed: UInt64) -> Flyer {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(number))
        var flyer = flyer
        flyer.title = "\(pick(kinds, &random)) \(word(&random))"
        flyer.description = (0..<8).map { _ in word(&random) }.joined(separator: " ")
        flyer.address = "\(1 + random.next() % 120) \(pick(streets, &random)) \(word(&random))"
        return flyer
    }

    /// `count` text queries: kinds of place (common), prefixes of them, generated words (common to rare), pairs.
    package static func queries(count: Int, seed: UInt64) -> [String] {
        var random = SeededRandom(seed: seed &+ 7)
        return (0..<count).map { number in
            switch number % 5 {
            case 0: return pick(kinds, &random).lowercased()
            case 1: return String(pick(kinds, &random).prefix(3))
            case 2: return word(&random)
            case 3: return "\(pick(kinds, &random)) \(word(&random))"
            default: return String(word(&random).prefix(4))
            }
        }
    }

    /// A word of two to four syllables, its syllables drawn `1/k` as often as the first.
    private static func word(_ random: inout SeededRandom) -> String {
        let length = 2 + Int(random.next() % 3)
        return (0..<length).map { _ in pick(syllables, &random) }.joined()
    }

    /// An element of `list`, element `k` about `1/k` as often as the first.
    private static func pick(_ list: [String], _ random: inout SeededRandom) -> String {
        let harmonic = (1...list.count).reduce(0.0) { $0 + 1 / Double($1) }
        var target = random.unit() * harmonic
        for (index, element) in list.enumerated() {
            target -= 1 / Double(index + 1)
            if target <= 0 { return element }
        }
        return list[list.count - 1]
    }
}
