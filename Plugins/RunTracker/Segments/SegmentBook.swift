import Foundation
import GRDB
import MeridianCore

/// Segments over the store (`segments`, `segment_efforts`): adding one finds the efforts of every stored run at
/// once, saving a run finds its efforts on every segment, and deleting or restoring a run hides or shows its
/// efforts (purging removes them). Candidate runs and segments are found by their bounding boxes.
package enum SegmentBook {
    /// The shortest segment, metres.
    package static let minimumLength = 100.0

    // MARK: Adding

    /// Validates `request`, stores the segment and the efforts of every stored run on it (one transaction, so an
    /// invalid request stores nothing), and returns it.
    package static func add(_ request: SegmentRequest, now: Date = Date(), in db: Database) throws -> Segment {
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ProgressError.invalid(
                field: "name", message: "must be 1 to 200 characters without control characters")
        }
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM segments WHERE name = ?)", arguments: [name])
            == true
        {
            throw ProgressError.segmentExists(name: name)
        }
        let run = try RunHistory.liveRun(db, id: request.runID)
        guard run.state == .stopped else {
            throw ProgressError.invalid(
                field: "run",
                message:
                    "run '\(run.id)' is \(run.state == .draft ? "a draft" : "being recorded"); segments are taken from saved runs"
            )
        }
        let samples = TrackSamples(points: try RunPoints.load(db, runID: run.id), start: run.startedAt)
        let path = try SegmentStretch.path(of: samples, bounds: request.bounds, runID: run.id)
        let course = SegmentCourse(path: path)
        guard course.length >= minimumLength else {
            throw ProgressError.invalid(
                field: "bounds",
                message:
                    "the segment would be \(NumberText.fixed(course.length, decimals: 0)) m long; a segment must be at least \(Int(minimumLength)) m"
            )
        }
        let box = TrackBox(path)
        try db.execute(
            sql: """
                INSERT INTO segments (name, activity, source_run_id, distance_m, min_lat, max_lat, min_lon, max_lon, path, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                name, run.activity.rawValue, run.id, course.length, box.minLatitude, box.maxLatitude,
                box.minLongitude, box.maxLongitude, RunTrack.pack(path), now.timeIntervalSince1970
            ])
        let id = db.lastInsertedRowID
        let grown = box.grown(by: SegmentCourse.gate)
        let candidates = try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, r.started_at FROM run_tracks t JOIN runs r ON r.id = t.run_id
                WHERE r.activity = ? AND r.state = 'stopped'
                    AND t.max_lat >= ? AND t.min_lat <= ? AND t.max_lon >= ? AND t.min_lon <= ?
                """,
            arguments: [
                run.activity.rawValue, grown.minLatitude, grown.maxLatitude, grown.minLongitude, grown.maxLongitude
            ])
        for candidate in candidates {
            let runID: String = candidate[0]
            let samples = TrackSamples(
                points: try RunPoints.load(db, runID: runID), start: Date(timeIntervalSince1970: candidate[1]))
            try insert(course.efforts(in: samples), segmentID: id, runID: runID, in: db)
        }
        return try segment(id: id, in: db)
    }

    private static func insert(_ passages: [SegmentPassage], segmentID: Int64, runID: String, in db: Database) throws {
        for passage in passages {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO segment_efforts (segment_id, run_id, start_offset_s, elapsed_s) VALUES (?, ?, ?, ?)
                    """, arguments: [segmentID, runID, passage.startOffset, passage.elapsedTime])
        }
    }

    // MARK: Saving a run

    /// Replaces run `run`'s efforts with its passages over every segment of its activity near its track.
    static func findEfforts(run: SavedRun, samples: TrackSamples, box: TrackBox, in db: Database) throws {
        try db.execute(sql: "DELETE FROM segment_efforts WHERE run_id = ?", arguments: [run.id])
        let grown = box.grown(by: SegmentCourse.gate)
        let segments = try Row.fetchAll(
            db,
            sql: """
                SELECT id, path FROM segments
                WHERE activity = ? AND max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
                """,
            arguments: [
                run.activity?.rawValue, grown.minLatitude, grown.maxLatitude, grown.minLongitude, grown.maxLongitude
            ])
        for row in segments {
            let id: Int64 = row[0]
            guard let path = RunTrack.unpack(row[1]) else {
                throw RunStoreError.database(
                    operation: "reading segment \(id)", detail: "its stored path is not a list of coordinates")
            }
            try insert(SegmentCourse(path: path).efforts(in: samples), segmentID: id, runID: run.id, in: db)
        }
    }

    // MARK: Reading

    /// Every segment, by name.
    package static func list(in db: Database) throws -> [Segment] {
        try Int64.fetchAll(db, sql: "SELECT id FROM segments ORDER BY name, id").map { try segment(id: $0, in: db) }
    }

    /// The segment with id or name `key`.
    package static func segment(_ key: String, in db: Database) throws -> Segment {
        try segment(id: try id(of: key, in: db), in: db)
    }

    /// The segment `key` (id or name) with its efforts ranked, fastest first.
    package static func efforts(_ key: String, in db: Database) throws -> SegmentEfforts {
        let id = try id(of: key, in: db)
        return SegmentEfforts(segment: try segment(id: id, in: db), efforts: try efforts(segmentID: id, in: db))
    }

    /// Deletes the segment `key` (id or name) with its efforts; returns it as it was.
    @discardableResult
    package static func delete(_ key: String, in db: Database) throws -> Segment {
        let segment = try segment(key, in: db)
        try db.execute(sql: "DELETE FROM segments WHERE id = ?", arguments: [segment.id])
        return segment
    }

    /// The id of the segment whose id (a whole number) or else name is `key`.
    static func id(of key: String, in db: Database) throws -> Int64 {
        if let number = Int64(key),
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM segments WHERE id = ?)", arguments: [number])
                == true
        {
            return number
        }
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM segments WHERE name = ?", arguments: [key]) else {
            throw ProgressError.segmentNotFound(id: key)
        }
        return id
    }

    static func segment(id: Int64, in db: Database) throws -> Segment {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, name, activity, distance_m, source_run_id, created_at, path FROM segments WHERE id = ?
                    """, arguments: [id])
        else { throw ProgressError.segmentNotFound(id: String(id)) }
        guard let path = RunTrack.unpack(row[6]), let activity = Activity(rawValue: row[2]) else {
            throw RunStoreError.database(
                operation: "reading segment \(id)", detail: "its stored path or activity is not readable")
        }
        let efforts = try efforts(segmentID: id, in: db)
        return Segment(
            id: id, name: row[1], activity: activity, distance: row[3], sourceRunID: row[4],
            createdAt: Date(timeIntervalSince1970: row[5]), path: path, effortCount: efforts.count, best: efforts.first,
            start: path.first, finish: path.last)
    }

    /// The efforts of saved (not deleted) runs on segment `segmentID`, ranked by elapsed time.
    static func efforts(segmentID: Int64, in db: Database) throws -> [SegmentEffort] {
        let distance =
            try Double.fetchOne(db, sql: "SELECT distance_m FROM segments WHERE id = ?", arguments: [segmentID]) ?? 0
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.run_id, r.name, r.started_at, e.start_offset_s, e.elapsed_s
                FROM segment_efforts e JOIN runs r ON r.id = e.run_id
                WHERE e.segment_id = ? AND r.deleted_at IS NULL AND r.state = 'stopped'
                ORDER BY e.elapsed_s, r.started_at, e.start_offset_s
                """, arguments: [segmentID])
        return rows.enumerated().map { index, row in
            let offset: Double = row[3], elapsed: Double = row[4]
            return SegmentEffort(
                rank: index + 1, runID: row[0], runName: row[1],
                startedAt: Date(timeIntervalSince1970: row[2] as Double + offset), elapsedTime: elapsed,
                startOffset: offset, pace: distance > 0 ? elapsed / distance * 1000 : 0)
        }
    }
}
