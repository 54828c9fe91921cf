import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("TCX: the shared device files and malformed XML")
struct TCXTests {
    @Test func edge705TwoLaps() throws {
        let activities = try ActivityFileReader.read(
            contentsOf: TestData.url("fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx"))
        #expect(activities.count == 1)
        let activity = try #require(activities.first)
        #expect(activity.format == .tcx)
        #expect(activity.device == "EDGE705")
        #expect(activity.sportName == "Biking")
        #expect(activity.sport == .ride)
        #expect(activity.name == nil, "no Notes: the Id is a time, not a name")
        // The first lap starts a second before its first trackpoint.
        #expect(activity.startTime.map(ISO8601.string(from:)) == "2009-12-09T06:54:25.000Z")
        #expect(activity.samples.first.map { ISO8601.string(from: $0.time) } == "2009-12-09T06:54:26.000Z")
        // PROVENANCE: laps 10 618.38 m / 3 166.32 s and 8 371.92 m / 2 645.61 s, sum 18 990.30 m / 5 811.93 s.
        #expect(activity.laps.count == 2)
        let totals = try #require(activity.totals)
        #expect(abs((totals.distance ?? 0) - 18_990.30) < 0.005)
        #expect(abs((totals.timerTime ?? 0) - 5_811.93) < 0.005)
        #expect(totals.elapsedTime == nil)
        #expect(activity.samples.count == 1254)
        #expect(
            activity.samples.filter { $0.coordinate != nil }.count == 1247, "trackpoints without a position are kept")
        #expect(activity.samples.allSatisfy { $0.heartRate != nil })
        #expect(activity.samples.compactMap(\.cadence).count == 3)
        // Three Tracks: the one inside the first lap (07:45:13 → 07:47:31) is a pause; the second lap's own Track
        // is not (the 8 h between the laps is a silence the tracker treats as a pause).
        #expect(activity.pauses.map(\.duration) == [138])
        let first = try #require(activity.samples.first)
        #expect(first.coordinate == (try Coordinate(latitude: 51.045824, longitude: 13.809552)))
        #expect(first.altitude == 109.971)
        #expect(first.heartRate == 81)
    }

    @Test func forerunner405WithoutPositions() throws {
        let activity = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx")
            ).first)
        #expect(activity.device == "Forerunner 405 Software Version 2.80")
        #expect(activity.sport == .run)
        #expect(activity.laps.count == 6)
        let totals = try #require(activity.totals)
        #expect(abs((totals.distance ?? 0) - 5_598.58) < 0.005)
        #expect(abs((totals.timerTime ?? 0) - 1_552.90) < 0.005)
        #expect(activity.samples.count == 270)
        #expect(activity.samples.allSatisfy { $0.coordinate == nil })
        #expect(activity.samples.compactMap(\.heartRate).count == 269)
        // RunCadence 50 (strides per minute) is 100 steps per minute.
        #expect(activity.samples.first?.cadence == 100)
        #expect(activity.samples.first?.distance == 1.67034006119)
        // One Track per lap, and no Track boundary inside a lap: no pauses.
        #expect(activity.pauses.isEmpty)
    }

    @Test func severalActivitiesExtensionsAndMalformedXML() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
              <Activities>
                <Activity Sport="Biking"><Id>2024-05-01T07:00:00Z</Id>
                  <Lap StartTime="2024-05-01T07:00:00Z"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>500</DistanceMeters>
                    <AverageHeartRateBpm><Value>120</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>130</Value></MaximumHeartRateBpm>
                    <Track><Trackpoint><Time>2024-05-01T07:00:00Z</Time><Cadence>90</Cadence>
                      <Extensions><ns3:TPX><ns3:Speed>8.5</ns3:Speed><ns3:Watts>210</ns3:Watts></ns3:TPX></Extensions></Trackpoint>
                      <Trackpoint><HeartRateBpm><Value>100</Value></HeartRateBpm></Trackpoint></Track>
                  </Lap>
                  <Notes>Evening ride</Notes>
                </Activity>
                <Activity Sport="Other"><Id>2024-05-02T07:00:00Z</Id></Activity>
              </Activities>
            </TrainingCenterDatabase>
            """
        let activities = try ActivityFileReader.read(Data(text.utf8), file: "two.tcx")
        #expect(activities.count == 2)
        let ride = activities[0]
        #expect(ride.name == "Evening ride")
        #expect(ride.samples.count == 1)
        #expect(ride.skipped["points_without_time"] == 1)
        #expect(ride.samples.first?.speed == 8.5)
        #expect(ride.samples.first?.power == 210)
        #expect(ride.samples.first?.cadence == 90, "bike cadence as recorded")
        #expect(ride.totals == DeviceTotals(distance: 500, timerTime: 60, averageHeartRate: 120, maxHeartRate: 130))
        #expect(activities[1].sport == .other)
        #expect(activities[1].samples.isEmpty)

        let broken = text.replacingOccurrences(of: "</Cadence>", with: "</Cadance>")
        #expect { try ActivityFileReader.read(Data(broken.utf8), file: "broken.tcx") } throws: { error in
            let error = error as? ActivityFileError
            return error?.line == 7 && error?.description.hasPrefix("broken.tcx:7: malformed XML") == true
        }
    }
}
