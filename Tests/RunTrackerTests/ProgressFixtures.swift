import Foundation
import MeridianCore
import Workloads

@testable import RunTracker

/// Courses and runs along them for the route, comparison and segment tests: a 4 km rectangular loop (1200 m north,
/// 800 m east, clockwise) from `Fixtures.origin`, the same loop the other way round, and a different loop from the
/// same start (600 m north, 1500 m east) whose first 600 m are the loop's.
enum Courses {
    static let loop = SyntheticCourse.loop(origin: Fixtures.origin, width: 800, height: 1200)
    static let reversed = loop.reversed()
    static let other = SyntheticCourse.loop(origin: Fixtures.origin, width: 1500, height: 600)

    /// A run along `course` on day `day` at a steady `speed` (m/s) with a gentle wave, GPS jitter of 1.5 m.
    static func run(
        _ id: String, on course: SyntheticCourse = loop, day: Int, speed: Double, seed: UInt64,
        activity: Activity = .run
    ) -> CourseRun {
        course.run(
            id: id, name: "Loop \(id)", activity: activity,
            startedAt: Fixtures.day0.addingTimeInterval(Double(day) * 86_400),
            jitter: 1.5, seed: seed
        ) { along in speed * (1 + 0.05 * sin(along / 300)) }
    }
}

extension HistoryFixture {
    /// Imports a course run through the tracker's pipeline (`RunStore.importRun`) with `matcher`.
    @discardableResult
    func insert(_ run: CourseRun, matcher: RouteMatcher = RouteMatcher()) throws -> ImportedRun? {
        try RunStore(store: store, matcher: matcher).importRun(
            run.recording, id: run.id, name: run.name, activity: run.activity)
    }
}
