import Foundation
import MeridianTesting
import Testing

/// What `meridian runs` prints on real device files: heart rate, zones and the device's own figures in `show`;
/// rides in speeds in every table and the picture; `stats` never mixing activities into one pace or trend.
@Suite("meridian runs: sensors, device figures and rides as a user reads them")
struct RunsPresentationTests {
    typealias History = RunsCommandTests.History
    /// Garmin Fenix 2, heart rate and cadence; the device counted 9,008.22 m in 2,832 s.
    static let run = "fit/fitparse__activity-small-fenix2-run.fit"
    /// Garmin Forerunner 110, 2013, slower than the Fenix run at every record distance it covers.
    static let slowRun = "fit/fitparse__2013-02-06-12-11-14.fit"
    /// Garmin Edge 820, 51.1 km by the device.
    static let ride = "fit/sportstracker__Garmin_Edge_820-Cycling.fit"

    static func onlyID(_ history: History, _ name: String) throws -> String {
        let list = try history.run(["list", "--json"])
        let runs =
            try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])["runs"]
            as? [[String: Any]]
        return try #require(
            runs?.first { ($0["name"] as? String)?.contains(name) == true }?["id"] as? String, "\(list.stdout)")
    }

    @Test(
        "runs show prints the heart rate, the time in each zone (of the configured maximum), split heart rates and the device's figures beside Meridian's"
    )
    func showSensorsAndDevice() throws {
        let history = try History(
            [(Self.run, nil)], extra: "consumers:\n  - type: run-tracker\n    max_heart_rate: 180\n")
        defer { history.remove() }
        let result = try history.run(["show", try Self.onlyID(history, "fenix2")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("heart rate ") && $0.contains(" bpm (max ") && $0.contains("cadence ") },
            "\(result.stdout)")
        #expect(
            lines.contains(
                "device garmin fenix2: distance 9.0 km (Meridian 8.9 km, −0.9 %)  timer 47:12 (Meridian 47:13, +0.0 %)"),
            "\(result.stdout)")
        let zones = try #require(lines.firstIndex(of: "heart rate zones (of max 180 bpm):"), "\(result.stdout)")
        // The time below the first zone and the five zones, which add up to the timer time (47:13 = 2,833 s).
        let rows = lines[(zones + 2)...].prefix(6)
        #expect(rows.count == 6 && rows.last?.contains("≥ 162") == true, "\(rows)")
        let seconds = rows.map { row -> Int in
            let time = row.split(separator: " ", omittingEmptySubsequences: true).dropLast(2).last ?? ""
            return time.split(separator: ":").compactMap { Int($0) }.reduce(0) { $0 * 60 + $1 }
        }
        #expect(abs(seconds.reduce(0, +) - 2833) <= 3, "\(rows)")
        let header = try #require(lines.first { $0.hasPrefix("  split") })
        #expect(header.hasSuffix("heart rate"), "\(header)")
        let splits = lines.filter { $0.hasPrefix("  1     1.0 km") || $0.hasPrefix("  9*") }
        #expect(splits.count == 2 && splits.allSatisfy { $0.contains(" bpm") }, "\(result.stdout)")
    }

    @Test(
        "under imperial units a run that set records lists them under their header, and a run that set none prints no records table"
    )
    func imperialRecords() throws {
        let history = try History([(Self.run, nil), (Self.slowRun, nil)], extra: "units: imperial\n")
        defer { history.remove() }
        let fast = try history.run(["show", try Self.onlyID(history, "fenix2")]).stdout.split(separator: "\n").map(
            String.init)
        let title = try #require(fast.firstIndex(of: "new records:"), "\(fast)")
        let rows = fast[(title + 2)...].filter { $0.contains("[") }
        #expect(
            fast[title + 1].contains("pace/speed") && rows.count >= 2 && rows.allSatisfy { $0.contains("/mi") },
            "\(fast)")
        let slow = try history.run(["show", try Self.onlyID(history, "2013-02-06")]).stdout
        #expect(!slow.contains("new records") && !slow.contains("pace/speed"), "\(slow)")
    }

    @Test(
        "a ride is in speeds: show's splits and records, runs records, runs compare and the picture's header (ascent in feet under imperial)"
    )
    func rideSpeeds() throws {
        let history = try History([(Self.ride, nil)], extra: "units: imperial\n")
        defer { history.remove() }
        let id = try Self.onlyID(history, "Edge_820")
        let show = try history.run(["show", id]).stdout.split(separator: "\n").map(String.init)
        #expect(show.contains { $0.hasPrefix("  split") && $0.contains("speed") }, "\(show)")
        let rideLines = show.filter { $0.hasPrefix("  1     1.0 mi") || $0.contains("(ride) ") }
        #expect(!rideLines.isEmpty && rideLines.allSatisfy { $0.contains(" mph") && !$0.contains("/mi") }, "\(show)")
        let records = try history.run(["records"]).stdout.split(separator: "\n").filter { $0.contains("(ride)") }
        #expect(records.count >= 3 && records.allSatisfy { $0.contains(" mph") && !$0.contains("/mi") }, "\(records)")
        let compare = try history.run(["compare", id, id]).stdout
        #expect(compare.contains("\nspeed ") && compare.contains(" mph") && !compare.contains("\npace "), "\(compare)")
        let picture = history.directory.appendingPathComponent("ride.svg")
        #expect(try history.run(["render", id, "-o", picture.path]).status == 0)
        let svg = try String(contentsOf: picture, encoding: .utf8)
        let headline = try #require(
            svg.split(separator: "\n").first { $0.contains("font-size=\"13\"") && $0.contains("UTC") })
        #expect(headline.contains(" mph") && !headline.contains("/mi") && headline.contains(" ft<"), "\(headline)")
        #expect(svg.contains(">speed</text>") && !svg.contains(">pace</text>"), "the map's legend")
        #expect(
            svg.contains(">speed ") && !svg.contains("/mi"), "the chart's caption: no pace anywhere in a ride's picture"
        )
    }

    @Test(
        "runs stats keeps activities apart (a table each, rides in speeds, no mixed pace or trend) and picks a period that fits the range"
    )
    func statsByActivity() throws {
        let history = try History([(Self.run, nil), (Self.slowRun, nil), (Self.ride, nil)])
        defer { history.remove() }
        let result = try history.run(["stats"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        let sections = text.components(separatedBy: "\n\n")
        let run = try #require(sections.first { $0.hasPrefix("run:\n") }, "\(text)")
        let ride = try #require(sections.first { $0.hasPrefix("ride:\n") }, "\(text)")
        // 2013 to today by year: about 14 lines a table, not 700 weekly ones.
        #expect(run.contains("\nyear (") && run.split(separator: "\n").count < 30, "\(run)")
        #expect(
            run.contains("  pace  ") && run.contains("\ntotal") && run.contains("/km") && !run.contains("km/h"),
            "\(run)")
        #expect(ride.contains("  speed ") && ride.contains("km/h") && !ride.contains("/km "), "\(ride)")
        #expect(text.contains("all activities: 3 runs"), "\(text)")
        #expect(run.contains("\n2014                         0  -\n"), "an empty year is a dash: \(run)")

        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try history.run(["stats", "--json"]).stdout.utf8))
                as? [String: Any])
        #expect(json["by"] as? String == "year" && json["activities"] as? [String] == ["run", "ride"])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["avg_pace_s_per_km"] is NSNull && totals["avg_speed_mps"] is NSNull)
        #expect((json["trend"] as? [String: Any])?["distance_slope_m_per_period"] is NSNull)
        let weeks = try history.run([
            "stats", "--activity", "run", "--by", "week", "--from", "2015-08-01", "--to", "2015-08-31"
        ]).stdout
        #expect(weeks.contains("2015-W33") && !weeks.contains("run:"), "\(weeks)")
    }
}
