import Foundation
import GRDB
import MeridianCore

/// The one reader of `run_points`: the stored fixes of a run in arrival order (live restore, history, export).
package enum RunPoints {
    /// Every point of run `runID`, accepted and rejected. A row with an unknown rejection reason or an
    /// invalid coordinate is a `RunStoreError.corruptRow` naming the run and the sequence number.
    package static func load(_ db: Database, runID: String) throws -> [TrackPoint] {
        var points: [TrackPoint] = []
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT seq, time, lat, lon, altitude, speed, accuracy, segment, rejection, distance_m, heart_rate, cadence,
                    power, temperature
                FROM run_points WHERE run_id = ? ORDER BY seq
                """, arguments: [runID])
        while let row = try cursor.next() {
            let sequence: Int = row[0]
            var coordinate: Coordinate?
            if let latitude: Double = row[2], let longitude: Double = row[3] {
                do {
                    coordinate = try Coordinate(latitude: latitude, longitude: longitude)
                } catch {
                    throw RunStoreError.corruptRow(runID: runID, detail: "point \(sequence): \(error)")
                }
            }
            var rejection: PointRejection?
            if let text: String = row[8] {
                guard let reason = PointRejection(rawValue: text) else {
                    throw RunStoreError.corruptRow(
                        runID: runID, detail: "point \(sequence): unknown rejection '\(text)'")
                }
                rejection = reason
            }
            points.append(
                TrackPoint(
                    sequence: sequence, time: Date(timeIntervalSince1970: row[1]), coordinate: coordinate,
                    altitude: row[4], speed: row[5], horizontalAccuracy: row[6], segment: row[7],
                    rejection: rejection, distance: row[9],
                    sensors: SensorReading(
                        heartRate: row[10], cadence: row[11], power: row[12],
                        temperature: row[13])))
        }
        return points
    }
}
