import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// What each shared GPX file holds (counted in the XML itself).
struct GPXTruth: CustomTestStringConvertible, Sendable {
    var name: String
    var creator: String
    var points: Int
    var withoutTime: Int = 0
    /// `trkseg` boundaries between segments that have timed points.
    var pauses: Int = 0
    var heartRate = 0
    var cadence = 0
    var sport: Sport?

    var testDescription: String { name }
}

@Suite("GPX: the shared files")
struct GPXTests {
    static let truths: [GPXTruth] = [
        .init(name: "fitotrackfork__Workout-2023-08-20-13-48-44.gpx", creator: "sportractive.com", points: 1620),
        .init(name: "gpxpy__around-visnjan-with-car.gpx", creator: "eTrex 20x", points: 104),
        .init(
            name: "gpxpy__korita-zbevnica.gpx", creator: "GPSBabel - http://www.gpsbabel.org", points: 871,
            withoutTime: 358, pauses: 1, sport: .other),
        .init(
            name: "pytrainer__gpxplus_sample.gpx", creator: "pytrainer http://sourceforge.net/projects/pytrainer",
            points: 666, heartRate: 666),
        .init(
            name: "sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx",
            creator: "tcx2gpx (research conversion of Edge705-Running-Heartrate-2Laps.tcx)", points: 1247,
            pauses: 2, heartRate: 1247, sport: .ride),
        .init(
            name: "sportstracker__bike-tour-garmin-oregon-trackpointextension-v2.gpx", creator: "Oregon 450",
            points: 204, heartRate: 204),
        .init(
            name: "sportstracker__bike-tour-gpsies.gpx", creator: "GPSies http://www.gpsies.com - DD-Tisa-Decin",
            points: 199),
        .init(
            name: "sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx", creator: "HOLUX GM-130",
            points: 179, heartRate: 179, cadence: 112)
    ]

    @Test("every shared GPX file", arguments: truths)
    func sharedFile(truth: GPXTruth) throws {
        let activities = try ActivityFileReader.read(contentsOf: TestData.url("gpx/\(truth.name)"))
        #expect(activities.count == 1)
        let activity = try #require(activities.first)
        #expect(activity.format == .gpx)
        #expect(activity.device == truth.creator)
        #expect(activity.sport == truth.sport)
        #expect(activity.samples.count == truth.points - truth.withoutTime)
        #expect(activity.skipped["points_without_time", default: 0] == truth.withoutTime)
        #expect(activity.skipped.keys.allSatisfy { $0 == "points_without_time" }, "\(activity.skipped)")
        #expect(activity.warnings.isEmpty, "\(activity.warnings)")
        #expect(activity.samples.allSatisfy { $0.coordinate != nil })
        #expect(activity.pauses.count == truth.pauses)
        #expect(activity.samples.compactMap(\.heartRate).count == truth.heartRate)
        #expect(activity.samples.compactMap(\.cadence).count == truth.cadence)
        #expect(activity.startTime == activity.samples.first?.time)
        #expect(activity.totals == nil && activity.laps.isEmpty)
    }

    @Test func holuxWritesHeartRateAsBpmAndCadenceAsRpm() throws {
        let activity = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("gpx/sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx")
            ).first)
        let first = try #require(activity.samples.first)
        #expect(ISO8601.string(from: first.time) == "2011-11-03T09:09:25.000Z")
        #expect(first.heartRate == 81)
        #expect(first.altitude == 224.0, "the point's own ele, not the extensions' ele src=\"gps\"")
        #expect(first.speed == 0.5)
        let last = try #require(activity.samples.last)
        #expect(last.heartRate == 165)
        #expect(last.cadence == 87)
        #expect(activity.name == "T00111103090925")
    }

    @Test func trackPointExtensionAndGPXData() throws {
        let oregon = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("gpx/sportstracker__bike-tour-garmin-oregon-trackpointextension-v2.gpx")
            ).first)
        #expect(oregon.samples.first?.heartRate == 158)
        let pytrainer = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("gpx/pytrainer__gpxplus_sample.gpx")).first)
        #expect(pytrainer.samples.prefix(3).map(\.heartRate) == [71, 72, 78])
        #expect(pytrainer.name == "running2012-01-26", "no trk name: the metadata name")
        #expect(pytrainer.samples.first.map { ISO8601.string(from: $0.time) } == "2012-01-26T17:11:00.000Z")
        let korita = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("gpx/gpxpy__korita-zbevnica.gpx")).first)
        #expect(korita.sportName == "jkljkl")
        #expect(korita.name == "03-OCT-10")
        let edge = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx")
            ).first)
        // The same boundaries as the TCX it came from.
        #expect(edge.pauses.map(\.duration) == [138, 29_420])
    }

    @Test func gpx10FieldsSensorsAndBadPoints() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0" xmlns:gpxdata="http://www.cluetrust.com/XML/GPXDATA/1/0">
            <trk><name>Morning</name><type>running</type><trkseg>
            <trkpt lat="48.1" lon="11.5"><ele>500</ele><time>2024-05-01T07:00:00Z</time><speed>3.5</speed><course>370</course><sat>9</sat><hdop>0.9</hdop><fix>3d</fix>
              <extensions><cad>85</cad><power>250</power><gpxdata:temp>21.5</gpxdata:temp></extensions></trkpt>
            <trkpt lat="abc" lon="11.5"><time>2024-05-01T07:00:01Z</time></trkpt>
            <trkpt lat="48.1" lon="11.6"><time>yesterday</time></trkpt>
            <trkpt lat="48.2" lon="11.5"><time>2024-05-01T07:00:03Z</time><fix>none</fix><ele>9</ele><sat>many</sat></trkpt>
            </trkseg><trkseg></trkseg><trkseg>
            <trkpt lat="48.3" lon="11.5"><time>2024-05-01T07:00:03Z</time></trkpt>
            </trkseg></trk>
            <rte><rtept lat="48.4" lon="11.5"><time>2024-05-01T07:01:00Z</time></rtept></rte>
            </gpx>
            """
        let activity = try #require(try ActivityFileReader.read(Data(text.utf8), file: "t.gpx").first)
        #expect(activity.sport == .run && activity.sportName == "running")
        #expect(activity.name == "Morning")
        #expect(activity.samples.count == 4)
        let first = activity.samples[0]
        #expect(
            first.speed == 3.5 && first.course == 10 && first.satellites == 9 && first.hdop == 0.9
                && first.fix == .threeD)
        #expect(first.horizontalAccuracy == nil, "no accuracy is made up from HDOP")
        #expect(first.cadence == 170, "running: strides per minute reported as steps")
        #expect(first.power == 250 && first.temperature == 21.5)
        let noFix = activity.samples[1]
        #expect(
            noFix.coordinate == nil && noFix.altitude == nil && noFix.fix == GPSFixType.none && noFix.satellites == nil)
        #expect(activity.skipped == ["invalid_points": 2, "invalid_values": 1])
        #expect(activity.warnings.map(\.line) == [6, 7, 8])
        #expect(
            activity.warnings.first?.description.hasPrefix("t.gpx:6: point has no valid position (lat=abc, lon=11.5)")
                == true)
        // The empty trkseg is no boundary; the rte is a segment of its own; a boundary may be zero long.
        #expect(activity.pauses.map(\.duration) == [0, 57])
    }

    @Test func malformedXMLKeepsThePointsBeforeIt() throws {
        let text = """
            <gpx version="1.1" creator="x"><trk><trkseg>
            <trkpt lat="48.1" lon="11.5"><time>2024-05-01T07:00:00Z</time></trkpt>
            <trkpt lat="48.3" lon="11.5"><time>2024-05-01T07:00:04Z</ti
            """
        let (activity, error) = GPXReader.read(Data(text.utf8), file: "bad.gpx")
        #expect(activity.samples.count == 1)
        #expect(error?.line == 3)
        #expect { try ActivityFileReader.read(Data(text.utf8), file: "bad.gpx") } throws: { error in
            (error as? ActivityFileError)?.description.hasPrefix("bad.gpx:3: malformed XML") == true
        }
    }
}
