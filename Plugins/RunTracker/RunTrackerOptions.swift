import Foundation
import MeridianCore

/// Options of the `run-tracker` consumer entry.
package struct RunTrackerOptions: Decodable, Sendable, Equatable {
    /// Fixes with a worse horizontal accuracy are rejected, metres.
    package var maxAccuracy: Double = 50
    /// In an imported file, a longer time without any fix is a pause (the device was stopped), seconds.
    package var pauseGapSeconds: Double = 300
    /// The athlete's maximum heart rate, for the heart-rate zones, beats per minute.
    package var maxHeartRate: Double = 190
    /// Resting heart rate for Banister's TRIMP, beats per minute.
    package var restingHeartRate: Double = 60
    /// Which of Banister's TRIMP weightings applies.
    package var sex: TrainingSettings.Sex = .male
    /// Threshold pace for rTSS, seconds per kilometre; estimated from the current VDOT when absent.
    package var thresholdPace: Double?
    /// Folder of the battery's sysfs entries.
    package var powerSupplyPath: String = PowerSupply.defaultRoot
    /// Auto-pause for every activity (each activity can override it).
    package var autoPause: Bool = true
    /// How close two runs' paths must be (discrete Fréchet distance) to be on the same route, metres.
    package var routeMatch: Double = RouteMatcher.defaultPathDistance
    /// Per-activity overrides of the plausibility and auto-pause limits.
    package var activities: [String: ActivityOverride] = [:]
    /// Privacy zones cut from every export, picture and map (`privacy.zones`), and the pages' admin setting.
    package var privacy = PrivacyOptions()

    package init() {}

    /// Overrides for one activity; absent keys keep the defaults.
    package struct ActivityOverride: Decodable, Sendable, Equatable {
        package var maxSpeed: Double?
        package var autoPause: Bool?
        package var autoPauseBelow: Double?
        package var autoPauseAfter: Double?
        package var autoResumeAbove: Double?

        enum CodingKeys: String, CodingKey {
            case maxSpeed = "max_speed_mps"
            case autoPause = "auto_pause"
            case autoPauseBelow = "auto_pause_below_mps"
            case autoPauseAfter = "auto_pause_after_s"
            case autoResumeAbove = "auto_resume_above_mps"
        }
    }

    enum CodingKeys: String, CodingKey {
        case maxAccuracy = "max_accuracy_m"
        case pauseGapSeconds = "pause_gap_s"
        case maxHeartRate = "max_heart_rate"
        case restingHeartRate = "resting_heart_rate"
        case sex
        case thresholdPace = "threshold_pace_s_per_km"
        case retiredGapSeconds = "gap_s"
        case powerSupplyPath = "power_supply_path"
        case autoPause = "auto_pause"
        case routeMatch = "route_match_m"
        case activities
        case privacy
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxAccuracy = try container.decodeIfPresent(Double.self, forKey: .maxAccuracy) ?? maxAccuracy
        if container.contains(.retiredGapSeconds) {
            throw DecodingError.dataCorruptedError(
                forKey: .retiredGapSeconds, in: container,
                debugDescription: """
                    'gap_s' is no longer an option: gaps between fixes are bridged when their speed is plausible (see the \
                    run tracker's README); remove it, and use 'pause_gap_s' for how long a silence in an imported file \
                    counts as a pause
                    """)
        }
        pauseGapSeconds = try container.decodeIfPresent(Double.self, forKey: .pauseGapSeconds) ?? pauseGapSeconds
        maxHeartRate = try container.decodeIfPresent(Double.self, forKey: .maxHeartRate) ?? maxHeartRate
        restingHeartRate = try container.decodeIfPresent(Double.self, forKey: .restingHeartRate) ?? restingHeartRate
        if let text = try container.decodeIfPresent(String.self, forKey: .sex) {
            guard let value = TrainingSettings.Sex(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .sex, in: container, debugDescription: "'\(text)' is not one of male, female")
            }
            sex = value
        }
        thresholdPace = try container.decodeIfPresent(Double.self, forKey: .thresholdPace)
        powerSupplyPath = try container.decodeIfPresent(String.self, forKey: .powerSupplyPath) ?? powerSupplyPath
        autoPause = try container.decodeIfPresent(Bool.self, forKey: .autoPause) ?? autoPause
        routeMatch = try container.decodeIfPresent(Double.self, forKey: .routeMatch) ?? routeMatch
        activities = try container.decodeIfPresent([String: ActivityOverride].self, forKey: .activities) ?? [:]
        privacy = try container.decodeIfPresent(PrivacyOptions.self, forKey: .privacy) ?? privacy
    }

    /// Decodes and validates `options`; errors name the key.
    package static func decode(_ options: PluginOptions) throws(ConfigError) -> RunTrackerOptions {
        let decoded = try options.decode(RunTrackerOptions.self)
        guard decoded.maxAccuracy.isFinite, decoded.maxAccuracy > 0 else {
            throw options.error(key: "max_accuracy_m", "must be a positive number of metres, e.g. 50")
        }
        guard decoded.pauseGapSeconds.isFinite, decoded.pauseGapSeconds > 0 else {
            throw options.error(key: "pause_gap_s", "must be a positive number of seconds, e.g. 300")
        }
        guard decoded.maxHeartRate.isFinite, (100...250).contains(decoded.maxHeartRate) else {
            throw options.error(key: "max_heart_rate", "must be beats per minute between 100 and 250, e.g. 190")
        }
        guard decoded.restingHeartRate.isFinite, (25...120).contains(decoded.restingHeartRate),
            decoded.restingHeartRate < decoded.maxHeartRate
        else {
            throw options.error(
                key: "resting_heart_rate", "must be beats per minute between 25 and 120, below max_heart_rate, e.g. 60")
        }
        if let pace = decoded.thresholdPace, !(pace.isFinite && (120...900).contains(pace)) {
            throw options.error(
                key: "threshold_pace_s_per_km",
                "must be seconds per kilometre between 120 and 900, e.g. 270 for 4:30/km")
        }
        guard decoded.routeMatch.isFinite, (1...500).contains(decoded.routeMatch) else {
            throw options.error(key: "route_match_m", "must be metres between 1 and 500, e.g. 50")
        }
        for (name, override) in decoded.activities {
            guard Activity(rawValue: name) != nil else {
                let allowed = Activity.allCases.map(\.rawValue).joined(separator: ", ")
                throw options.error(key: "activities", "unknown activity '\(name)'; use one of \(allowed)")
            }
            for value in [override.maxSpeed, override.autoPauseBelow, override.autoPauseAfter, override.autoResumeAbove]
            {
                if let value, !(value.isFinite && value > 0) {
                    throw options.error(key: "activities", "limits of '\(name)' must be positive numbers")
                }
            }
        }
        return decoded
    }

    /// The engine settings these options describe, with splits in the user's units.
    package func settings(units: UnitSystem) -> TrackerSettings {
        var settings = TrackerSettings()
        settings.maxAccuracy = maxAccuracy
        settings.pauseGapSeconds = pauseGapSeconds
        settings.splitDistance = units == .metric ? 1000 : UnitSystem.metresPerMile
        for activity in Activity.allCases {
            var profile = ActivityProfile.defaults(for: activity)
            profile.autoPause = autoPause
            if let override = activities[activity.rawValue] {
                profile.maxSpeed = override.maxSpeed ?? profile.maxSpeed
                profile.autoPause = override.autoPause ?? profile.autoPause
                profile.autoPauseSpeed = override.autoPauseBelow ?? profile.autoPauseSpeed
                profile.autoPauseAfter = override.autoPauseAfter ?? profile.autoPauseAfter
                profile.autoResumeSpeed = override.autoResumeAbove ?? profile.autoResumeSpeed
            }
            settings.profiles[activity] = profile
        }
        return settings
    }

    /// What training load is computed with.
    package var training: TrainingSettings {
        TrainingSettings(
            maxHeartRate: maxHeartRate, restingHeartRate: restingHeartRate, sex: sex,
            thresholdSpeed: thresholdPace.map { 1000 / $0 })
    }

    /// How saved runs are grouped into routes.
    package var matcher: RouteMatcher { RouteMatcher(pathDistance: routeMatch) }

    /// The documentation of each option, for `meridian plugins`.
    package static let info: [OptionInfo] = [
        OptionInfo(
            "max_accuracy_m", "number > 0", default: "50",
            "fixes with a worse horizontal accuracy are kept but not used"),
        OptionInfo(
            "pause_gap_s", "number > 0", default: "300",
            "in an imported file, a longer silence is a pause: no distance or timer time across it"),
        OptionInfo(
            "max_heart_rate", "100–250", default: "190",
            "maximum heart rate for the five heart-rate zones (50/60/70/80/90 %)"),
        OptionInfo(
            "resting_heart_rate", "25–120", default: "60", "resting heart rate for the training load (Banister's TRIMP)"
        ),
        OptionInfo(
            "sex", "male|female", default: "male",
            "Banister's TRIMP weighting: 0.64·e^(1.92·HRr) (male) or 0.86·e^(1.67·HRr) (female)"),
        OptionInfo(
            "threshold_pace_s_per_km", "120–900", default: "from the current VDOT",
            "threshold pace for the load of runs without heart rate (rTSS)"),
        OptionInfo(
            "power_supply_path", "path", default: PowerSupply.defaultRoot,
            "battery sysfs folder; low (15–30 %) and critical (< 15 %) batteries thin out sampling"),
        OptionInfo(
            "auto_pause", "boolean", default: "true",
            "pause below 0.5 m/s for 30 s and resume above 1 m/s (ride: 1 and 2 m/s)"),
        OptionInfo(
            "route_match_m", "1–500", default: "50",
            "runs whose paths are this close (discrete Fréchet distance) and whose starts and finishes are within 100 m form a route"
        ),
        OptionInfo(
            "activities",
            "map run|walk|hike|ride|other → {max_speed_mps, auto_pause, auto_pause_below_mps, auto_pause_after_s, auto_resume_above_mps}",
            default: "run 12, walk 4, hike 5, ride 30, other 60 m/s", "per-activity limits"),
        OptionInfo(
            "privacy", "{zones: [{name, center: LAT,LON, radius_m: 100–10000}], pages_show_zones: boolean}",
            default: "no zones",
            "circles (home, work) cut from every export, picture and map of a run; pages_show_zones draws the whole route on the owner's run pages"
        )
    ]
}
