import Foundation
import GRDB
import MeridianCore
import MeridianStore
import MeridianTesting
import Workloads

@testable import RunTracker

/// A real SpatiaLite file with the run tracker's and the history's tables, removed by `remove()`.
struct HistoryFixture {
    let temporary: TemporaryStore
    var store: Store { temporary.store }
    var history: RunHistory { RunHistory(store: store) }

    init() throws {
        temporary = try TemporaryStore()
        try RunTrackerSchema.migrate(temporary.store)
    }

    func remove() { temporary.remove() }

    /// The stored points of run `id`, in order.
    func points(ofRun id: String) throws -> [TrackPoint] {
        try store.database.read { db in try RunPoints.load(db, runID: id) }
    }

    /// Imports `run` through the tracker's pipeline (`RunStore.importRun`) and returns the records it set.
    @discardableResult
    func insert(_ run: SyntheticRun) throws -> [PersonalRecord] {
        try RunStore(store: store).importRun(run.recording, id: run.id, name: run.name, activity: run.activity)?.records
            ?? []
    }
}

enum Fixtures {
    static let origin = try! Coordinate(latitude: 48.137, longitude: 11.575)
    static let day0 = Date(timeIntervalSince1970: 1_714_550_400)  // 2024-05-01T08:00:00Z

    /// A generated run starting `day` days after `day0`.
    static func run(
        _ id: String, day: Int, name: String? = nil, activity: Activity = .run, duration: Int = 600,
        pace: Double = 330, pauses: [(offset: Int, length: Int)] = [], seed: UInt64 = 7
    ) -> SyntheticRun {
        SyntheticRun(
            id: id, name: name ?? "Run \(id)", activity: activity,
            startedAt: day0.addingTimeInterval(Double(day) * 86_400), origin: origin, duration: duration,
            paceSecondsPerKilometre: pace, pauses: pauses, seed: seed)
    }

    /// Points moving due north at constant `speeds[i]` m/s during second i (1 Hz), all accepted, one segment.
    static func straightPoints(speeds: [Double], start: Date = day0) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var position = origin
        for (index, speed) in ([0] + speeds).enumerated() {
            if index > 0 {
                position =
                    (try? Geodesic.wgs84.direct(from: position, bearing: 0, distance: speed).destination) ?? position
            }
            points.append(
                TrackPoint(
                    sequence: index, time: start.addingTimeInterval(Double(index)), coordinate: position,
                    altitude: 100, speed: speed, horizontalAccuracy: 4))
        }
        return points
    }
}
