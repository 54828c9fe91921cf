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
    /// a Fenix 2 records runs as generic), anything else→other. A generic or fitness_equipment sport is told by its
    /// `sub_sport`: treadmill and indoor_running→run, spin and indoor_cycling→ride, indoor_walking→walk (an indoor
    /// rower, elliptical or stair climber stays other).
    static func sport(_ number: Int, subSport: Int? = nil) -> Sport? {
        if number == 0 || number == 4, let subSport, let indoor = indoorSports[subSport] { return indoor }
        switch number {
        case 0: return nil
        case 1: return .run
        case 2, 21: return .ride
        case 11: return .walk
        case 17: return .hike
        default: return .other
        }
    }

    /// FIT `sub_sport` numbers of machines that stand for a sport: treadmill 1, spin 5, indoor_cycling 6,
    /// indoor_walking 27, indoor_running 45.
    private static let indoorSports: [Int: Sport] = [1: .run, 45: .run, 5: .ride, 6: .ride, 27: .walk]
}
