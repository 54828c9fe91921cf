import ActivityFiles
import Foundation
import MeridianCore
import Testing

@testable import RunTracker

/// A run that starts in a privacy zone is exported as its visible stretch: its start, distance, times, laps and
/// default name are that stretch's, and they agree with its points.
@Suite("Privacy zones: a run starting in one is shown from its first visible point")
struct PrivacyTrimTests {
    @Test("start, distance, timer, laps and a name made from the start time are the visible stretch's")
    func visibleStretch() throws {
        let (run, points) = try #require(try PrivacyBruteForceTests.runs().first)
        var named = run
        named.name = run.activity.runName(startedAt: run.startedAt)
        // Three laps of 1 km (600 s at 3 m/s, the last partial); the zone hides the first few hundred metres.
        let laps = (0..<3).map { index in
            DeviceLap(
                start: run.startedAt.addingTimeInterval(Double(index) * 1000 / 3), timerTime: 1000 / 3, distance: 1000)
        }
        let zone = PrivacyZone(
            name: "home", centre: PrivacyBruteForceTests.door, radius: 300, source: .command,
            secret: ZoneSecret(offsetNorth: 250, offsetEast: 90, jitter: 60))
        let cut = PrivacyZones(zones: [zone]).cut(points)
        let first = try #require(points.first { !cut.hides($0) })
        let (shown, shownPoints, shownLaps, shownCut) = PrivacyTrim.visibleStretch(
            run: named, points: points, laps: laps, cut: cut)
        // The stretch's cut is what the zones make of its points.
        #expect(shownCut.hidden == PrivacyZones(zones: [zone]).cut(shownPoints).hidden)

        #expect(shown.startedAt == first.time && shownPoints.first?.time == first.time)
        #expect(shownPoints.allSatisfy { !cut.hides($0) })
        let hiddenDistance = try #require(first.distance)
        #expect(hiddenDistance > 300)
        #expect(abs(shown.distance - (run.distance - hiddenDistance)) < 0.01)
        #expect(shownPoints.first?.distance == 0 && shownPoints.last?.distance == shown.distance)
        let hiddenTime = first.time.timeIntervalSince(run.startedAt)
        #expect(abs(shown.timerTime - (run.timerTime - hiddenTime)) < 0.01)
        #expect(shown.elapsedTime == shown.timerTime && shown.endedAt == run.endedAt)
        #expect(shown.name == run.activity.runName(startedAt: first.time))
        #expect(shownLaps.count == 3 && shownLaps[0].start == first.time)
        #expect(abs((shownLaps[0].timerTime ?? 0) - (1000 / 3 - hiddenTime)) < 0.01)
        #expect(abs(shownLaps.compactMap(\.distance).reduce(0, +) - (3000 - hiddenDistance)) < 0.01)
        // A name the runner gave stays.
        #expect(PrivacyTrim.visibleStretch(run: run, points: points, laps: [], cut: cut).run.name == run.name)
        // Nothing hidden at either end: unchanged.
        let elsewhere = PrivacyZone(
            name: "work", centre: try Coordinate(latitude: 48.2, longitude: 11.7), radius: 300, source: .command,
            secret: ZoneSecret(offsetNorth: 250, offsetEast: 90, jitter: 60))
        let untouched = PrivacyTrim.visibleStretch(
            run: named, points: points, laps: laps, cut: PrivacyZones(zones: [elsewhere]).cut(points))
        #expect(untouched.run == named && untouched.points == points && untouched.laps == laps)
    }
}
