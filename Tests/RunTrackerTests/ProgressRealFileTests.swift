import ActivityFiles
import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Real device files (`../shared/data`) imported as `meridian runs import` does, then summed, grouped and compared.
@Suite("Progress over real files")
struct ProgressRealFileTests {
    static let files = [
        "fit/fitparse__garmin-fenix-5-run.fit", "fit/fitparse__garmin-fenix-5-bike.fit",
        "fit/fitparse__garmin-fenix-5-walk.fit",
        "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit", "fit/sportstracker__Garmin_Edge_820-Cycling.fit",
        "fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx", "gpx/gpxpy__korita-zbevnica.gpx",
        "gpx/sportstracker__bike-tour-gpsies.gpx", "gpx/fitotrackfork__Workout-2023-08-20-13-48-44.gpx"
    ]

    static func importAll(into fixture: HistoryFixture, files: [String] = files, allowDuplicates: Bool = false) throws
        -> [RunSummary]
    {
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        return try files.flatMap { path in
            try importer.importFile(
                try Data(contentsOf: TestData.url(path)), file: path,
                request: RunImporter.Request(allowDuplicates: allowDuplicates)
            ).compactMap { outcome -> RunSummary? in
                if case .imported(let run) = outcome { return run.summary }
                return nil
            }
        }
    }

    @Test("stats of the shared files by month and by year add up to every saved run listed, per activity too")
    func statsAddUp() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let imported = try Self.importAll(into: fixture)
        let saved = imported.filter { $0.state == .stopped }
        #expect(
            saved.count == Self.files.count, "an import makes no drafts: the short Fenix 5 run and walk are saved too")
        let zone = TimeZone(identifier: "America/New_York") ?? .gmt
        for by in StatsPeriod.allCases {
            for activity in [nil] + Activity.allCases {
                let report = try await fixture.store.database.read { db in
                    try RunStatsReport.make(
                        by: by, filter: RunFilter(activity: activity), timeZone: zone, now: Date(), in: db)
                }
                let expected = saved.filter { activity == nil || $0.activity == activity }
                let periodRuns: Int = report.periods.map(\.totals.runs).reduce(0, +)
                let periodDistance: Double = report.periods.map(\.totals.distance).reduce(0, +)
                let distance: Double = expected.map(\.distance).reduce(0, +)
                let moving: Double = expected.map(\.movingTime).reduce(0, +)
                #expect(report.totals.runs == expected.count && periodRuns == expected.count)
                #expect(abs(periodDistance - distance) < 1e-6)
                #expect(abs(report.totals.movingTime - moving) < 1e-6)
                if let longest = expected.max(by: { $0.distance < $1.distance }) {
                    #expect(report.totals.longestRunID == longest.id)
                }
            }
        }
        let listed = try await fixture.history.list(RunListQuery(limit: 200)).runs.map(\.run)
        #expect(Set(listed.map(\.id)) == Set(saved.map(\.id)))
    }

    @Test("rides from files set ride records only; a file imported twice is one route, with no gap between its copies")
    func ridesRoutesAndCopies() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let running = "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit"
        let runs = try Self.importAll(into: fixture, files: ["fit/sportstracker__Garmin_Edge_820-Cycling.fit", running])
        let report = try await fixture.history.records()
        let ride = try #require(runs.first { $0.activity == .ride })
        #expect(report.records.filter { $0.runID == ride.id }.allSatisfy { $0.activity == .ride })
        #expect(report.records.contains { $0.runID == ride.id && $0.distance == .longest })
        #expect(!report.records.contains { $0.runID == ride.id && $0.activity == .run })

        let copy = try #require(try Self.importAll(into: fixture, files: [running], allowDuplicates: true).first)
        let original = try #require(runs.first { $0.activity != .ride })
        let split = ProgressSettings().split
        let comparison = try await fixture.store.database.read { db in
            try RunComparison.make(original.id, copy.id, unit: split.unit, unitDistance: split.distance, in: db)
        }
        #expect(comparison.sameRoute)
        let gap = try #require(comparison.gap)
        #expect(!gap.isEmpty && gap.allSatisfy { abs($0.delta) < 1e-6 })
        #expect(comparison.splits.allSatisfy { abs($0.delta ?? 1) < 1e-6 })

        // A segment from the real run: both copies get the same effort.
        let segment = try await fixture.store.database.write { db in
            try SegmentBook.add(
                SegmentRequest(name: "Real", runID: original.id, bounds: .kilometres(from: 0.5, to: 1.5)), in: db)
        }
        let efforts = try await fixture.store.database.read { db in try SegmentBook.efforts(String(segment.id), in: db)
        }.efforts
        #expect(Set(efforts.map(\.runID)) == [original.id, copy.id])
        #expect(abs(efforts[0].elapsedTime - efforts[1].elapsedTime) < 1e-6)
        let progress = try await fixture.store.database.read { db in
            try ProgressStore.load(runID: original.id, start: original.startedAt, in: db)
        }
        var cursor = 0
        let start = try #require(progress.timeReaching(500, from: &cursor)),
            end = try #require(progress.timeReaching(1500, from: &cursor))
        #expect(
            abs(efforts[0].elapsedTime - (end - start)) < 5, "the effort is timed where the run passed 0.5 and 1.5 km")
    }
}
