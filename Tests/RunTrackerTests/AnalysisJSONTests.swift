import Foundation
import MeridianCore
import Testing

@testable import RunTracker

@Suite("run analysis JSON: unknown figures are null, never missing")
struct AnalysisJSONTests {
    @Test("a run without points, accuracies or altitudes still has every analysis key")
    func everyKeyPresent() throws {
        let analysis = RunAnalysis(points: [], start: Date(timeIntervalSince1970: 1_700_000_000), activity: .run)
        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(analysis)) as? [String: Any])
        let quality = try #require(json["quality"] as? [String: Any])
        for key in ["accuracy_p50_m", "accuracy_p95_m", "accuracy_max_m"] {
            #expect(quality[key] is NSNull, "quality.\(key)")
        }
        let profile = try #require(json["profile"] as? [String: Any])
        #expect(profile["min_altitude_m"] is NSNull && profile["max_altitude_m"] is NSNull)
        let route = try #require(json["route"] as? [String: Any])
        #expect(route["efficiency"] is NSNull)
        let splits = try #require(json["splits"] as? [[String: Any]])
        #expect(splits.allSatisfy { $0["fastest"] is NSNull && $0["slowest"] is NSNull })
    }

    @Test("a profile slice without altitude or movement keeps both keys as null")
    func profileSample() throws {
        let sample = Profile.Sample(distance: 100, altitude: nil, pace: nil)
        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(sample)) as? [String: Any])
        #expect(json["altitude_m"] is NSNull && json["pace_s_per_km"] is NSNull)
        #expect(
            try MeridianJSON.makeDecoder().decode(Profile.Sample.self, from: Data(#"{"distance_m": 5}"#.utf8)).altitude
                == nil)
    }
}
