extension FITProfileNames {
    /// Manufacturers whose `product` numbers are Garmin product numbers (the profile's `garmin_product` subfield).
    private static let garminProductMakers: Set<Int> = [1, 13, 15, 89]

    /// "garmin fr110", "wahoo_fitness 31", "manufacturer 9999 Foo": the profile's manufacturer
    /// name, then the Garmin product name, else the file's product name, else the number.
    static func device(manufacturer: Int?, product: Int?, productName: String?) -> String? {
        let maker = manufacturer.map { manufacturers[$0] ?? "manufacturer \($0)" }
        var model = productName
        if let product {
            if let manufacturer, garminProductMakers.contains(manufacturer), let name = garminProducts[product] {
                model = name
            } else if model == nil {
                model = String(product)
            }
        }
        let words = [maker, model].compactMap { $0 }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The profile's name for a sport number ("running"), or "sport N" for numbers it does not know.
    static func sportName(_ number: Int) -> String {
        sports[number] ?? "sport \(number)"
    }

    /// running→run, cycling and e_biking→ride, walking→walk, hiking→hike, generic→`nil` (the device did not say:
    /// a Fenix 2 records runs as generic), anything else→other.
    static func sport(_ number: Int) -> Sport? {
        switch number {
        case 0: return nil
        case 1: return .run
        case 2, 21: return .ride
        case 11: return .walk
        case 17: return .hike
        default: return .other
        }
    }
}
