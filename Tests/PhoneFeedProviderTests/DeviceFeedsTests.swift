import Foundation
import Testing

@testable import PhoneFeedProvider

/// Ordering, duplicates, late points, checks and the rate limit of one device's feed.
@Suite struct DeviceFeedsTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func point(_ offset: TimeInterval, lat: Double = 52.5, speed: Double? = nil) -> DecodedPoint {
        .point(PhonePoint(time: now.addingTimeInterval(offset), latitude: lat, longitude: 13.4, speed: speed))
    }

    @Test func batchesAreTakenInTimeOrderAndDuplicatesIgnored() {
        let feeds = DeviceFeeds(pointsPerSecond: 50, burst: 1000)
        let passed = feeds.accept([point(-10), point(-30), point(-20), point(-20)], from: "ph", now: now).current
        #expect(passed.map(\.time) == [-30, -20, -10].map { now.addingTimeInterval($0) })
        let again = feeds.accept([point(-30), point(-10)], from: "ph", now: now)
        #expect(again.current.isEmpty && again.late.isEmpty)
        let state = feeds.state(of: "ph")
        #expect(state.received == 6 && state.accepted == 3 && state.duplicate == 3 && state.late == 0)
        #expect(state.lastFix == now.addingTimeInterval(-10))
    }

    @Test func latePointsNeverBecomeTheLatestPositionButAreHandedOnApart() {
        let feeds = DeviceFeeds(pointsPerSecond: 50, burst: 1000)
        _ = feeds.accept([point(-5)], from: "ph", now: now)
        let late = feeds.accept([point(-50), point(-60), point(-1)], from: "ph", now: now)
        #expect(late.current.map(\.time) == [now.addingTimeInterval(-1)])
        #expect(late.late.map(\.time) == [now.addingTimeInterval(-60), now.addingTimeInterval(-50)])
        #expect(feeds.state(of: "ph").late == 2)
        #expect(feeds.state(of: "ph").lastFix == now.addingTimeInterval(-1))
    }

    @Test func badPointsAreRejectedWithAReasonAndTheRestKept() {
        let feeds = DeviceFeeds(pointsPerSecond: 50, burst: 1000)
        let passed = feeds.accept(
            [point(-3), point(-2, lat: 91), point(-1, lat: .nan), point(0, speed: 1000), point(121), point(60)],
            from: "ph", now: now
        ).current
        #expect(passed.map(\.time) == [now.addingTimeInterval(-3), now.addingTimeInterval(60)])
        let state = feeds.state(of: "ph")
        #expect(state.rejected == 4)
        #expect(state.lastRejection?.contains("future") == true)
    }

    @Test func theRateLimitRejectsWhatExceedsTheBurst() {
        let feeds = DeviceFeeds(pointsPerSecond: 1, burst: 3)
        let passed = feeds.accept((0..<5).map { point(TimeInterval(-10 + $0)) }, from: "ph", now: now).current
        #expect(passed.count == 3)
        #expect(feeds.state(of: "ph").rejected == 2)
        #expect(feeds.accept([point(-1)], from: "ph", now: now.addingTimeInterval(1)).current.count == 1)
    }
}
