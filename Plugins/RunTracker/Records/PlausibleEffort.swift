import MeridianCore

extension RecordDistance {
    /// The fastest an effort over this distance can be in `activity`, m/s; a faster one is not the activity's (a ride
    /// or a car trip given as a run) and sets no record. Runs: the world records (1 km 2:11.96, mile 3:43.13, 5 km
    /// 12:35.36, 10 km 26:11.00, half marathon 56:42, marathon 2:00:35). Rides: 72 km/h over 10 km and 65 km/h over
    /// 20 km (long descents), 60 km/h over 40 km and 54 km/h over 100 km (the hour record is 56.8 km). `nil`: no limit
    /// (`longest`, and activities without timed records).
    func fastestPlausibleSpeed(for activity: Activity) -> Double? {
        switch (activity, self) {
        case (.run, .oneKilometre): return metres / 131.96
        case (.run, .mile): return metres / 223.13
        case (.run, .fiveKilometres): return metres / 755.36
        case (.run, .tenKilometres): return metres / 1571
        case (.run, .halfMarathon): return metres / 3402
        case (.run, .marathon): return metres / 7235
        case (.ride, .tenKilometres): return 72 / 3.6
        case (.ride, .twentyKilometres): return 65 / 3.6
        case (.ride, .fortyKilometres): return 60 / 3.6
        case (.ride, .hundredKilometres): return 54 / 3.6
        default: return nil
        }
    }
}

extension BestEffort {
    /// Whether a person can go this fast over this distance in `activity` (`RecordDistance.fastestPlausibleSpeed`).
    func isPlausible(for activity: Activity) -> Bool {
        guard let limit = distance.fastestPlausibleSpeed(for: activity) else { return true }
        return elapsedTime > 0 && distanceMetres / elapsedTime <= limit
    }
}
