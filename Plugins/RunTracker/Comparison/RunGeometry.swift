import Foundation
import GRDB
import MeridianCore

/// A saved run's positions as routes and segments need them: every usable sample, and the simplified track.
package struct RunGeometry: Sendable {
    package var samples: TrackSamples
    /// `nil` when the run has fewer than two distinct positions.
    package var track: RunTrack?

    package init(points: [TrackPoint], start: Date) {
        samples = TrackSamples(points: points, start: start)
        track = RunTrack(samples: samples)
    }

    /// Files a saved run in its route and finds its segment efforts, inside the caller's transaction (called by
    /// `RunCompletion.didSave`).
    static func didSave(run: SavedRun, geometry: RunGeometry, matcher: RouteMatcher, in db: Database) throws {
        guard let track = geometry.track else {
            try db.execute(sql: "DELETE FROM run_tracks WHERE run_id = ?", arguments: [run.id])
            try db.execute(sql: "DELETE FROM segment_efforts WHERE run_id = ?", arguments: [run.id])
            return
        }
        try RouteBook.file(track, run: run, matcher: matcher, in: db)
        try RouteBook.removeEmptyRoutes(in: db)
        try SegmentBook.findEfforts(run: run, samples: geometry.samples, box: track.box, in: db)
    }
}
