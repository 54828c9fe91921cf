import Foundation
import GRDB
import MeridianCore

/// The deliveries in the outbox (`EventOutbox`): what waits for each hook, in order, what was delivered, what
/// failed and when it is tried again, and the dead-letter list.
public enum HookDeliveries {
    /// One event waiting for one hook.
    public struct Pending: Sendable, Equatable {
        public var sequence: Int64
        /// The event's id (`X-Meridian-Event-Id`), the same at every attempt.
        public var eventID: String
        public var type: String
        public var time: Date
        /// The payload, as on `GET /v1/events`.
        public var body: String
        public var attempts: Int
        /// When it may be tried (no earlier than now: now).
        public var nextAttempt: Date
        /// When its retries started (the event's time, or its last `retry`): `max_age` counts from here.
        public var since: Date
    }

    /// One event in the dead-letter list.
    public struct DeadLetter: Sendable, Codable, Equatable {
        public var hookId: String
        public var eventId: String
        public var type: String
        public var time: Date
        public var attempts: Int
        public var lastError: String?
        public var failedAt: Date
    }

    /// The oldest `limit` events waiting for hook `hookID` (the dead-letter list left out), oldest first.
    public static func pending(hookID: String, limit: Int, in db: Database) throws -> [Pending] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT d.event_seq, e.id, e.type, e.time, e.body, d.attempts, d.next_attempt, d.since
                FROM hooks_deliveries d JOIN hooks_events e ON e.seq = d.event_seq
                WHERE d.hook_id = ? AND d.dead_at IS NULL ORDER BY d.event_seq LIMIT ?
                """, arguments: [hookID, limit]
        ).map { row in
            Pending(
                sequence: row[0], eventID: row[1], type: row[2], time: Date(timeIntervalSince1970: row[3]),
                body: row[4], attempts: row[5], nextAttempt: Date(timeIntervalSince1970: row[6]),
                since: Date(timeIntervalSince1970: row[7]))
        }
    }

    /// Records that hook `hookID`'s receiver accepted the events `sequences`; events no hook waits for any more
    /// leave the outbox.
    public static func delivered(hookID: String, sequences: [Int64], in db: Database) throws {
        guard !sequences.isEmpty else { return }
        let marks = sequences.map { _ in "?" }.joined(separator: ",")
        try db.execute(
            sql: "DELETE FROM hooks_deliveries WHERE hook_id = ? AND event_seq IN (\(marks))",
            arguments: StatementArguments([hookID]) + StatementArguments(sequences))
        try db.execute(
            sql: """
                DELETE FROM hooks_events WHERE seq IN (\(marks))
                    AND NOT EXISTS (SELECT 1 FROM hooks_deliveries d WHERE d.event_seq = hooks_events.seq)
                """, arguments: StatementArguments(sequences))
    }

    /// Records a failed attempt of `delivery` to hook `hook`: tried again after `delay`, or moved to the dead-letter
    /// list when `max_age` has passed since the delivery's `since`. Returns true when it moved there.
    @discardableResult
    public static func failed(
        _ delivery: Pending, hook: HookSpec, error: String, delay: Double, now: Date = Date(), in db: Database
    ) throws -> Bool {
        let dead = now.timeIntervalSince(delivery.since) >= hook.maxAge
        try db.execute(
            sql: """
                UPDATE hooks_deliveries SET attempts = attempts + 1, last_error = ?, next_attempt = ?, dead_at = ?
                WHERE hook_id = ? AND event_seq = ?
                """,
            arguments: [
                error, now.timeIntervalSince1970 + delay, dead ? now.timeIntervalSince1970 : nil, hook.id,
                delivery.sequence
            ])
        return dead
    }

    /// The dead-letter list, oldest event first (of hook `hookID` only, when given).
    public static func deadLetters(hookID: String? = nil, in db: Database) throws -> [DeadLetter] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT d.hook_id, e.id, e.type, e.time, d.attempts, d.last_error, d.dead_at
                FROM hooks_deliveries d JOIN hooks_events e ON e.seq = d.event_seq
                WHERE d.dead_at IS NOT NULL AND (? IS NULL OR d.hook_id = ?) ORDER BY d.event_seq, d.hook_id
                """, arguments: [hookID, hookID]
        ).map { row in
            DeadLetter(
                hookId: row[0], eventId: row[1], type: row[2], time: Date(timeIntervalSince1970: row[3]),
                attempts: row[4], lastError: row[5], failedAt: Date(timeIntervalSince1970: row[6]))
        }
    }

    /// Puts dead letters back in line for delivery now, with `max_age` counted from now: the one of event
    /// `eventID` (for every hook it failed for), or all (of hook `hookID` only, when given). Returns how many.
    @discardableResult
    public static func retry(eventID: String? = nil, hookID: String? = nil, now: Date = Date(), in db: Database)
        throws -> Int
    {
        try db.execute(
            sql: """
                UPDATE hooks_deliveries SET dead_at = NULL, attempts = 0, next_attempt = 0, since = ?
                WHERE dead_at IS NOT NULL AND (? IS NULL OR hook_id = ?)
                    AND (? IS NULL OR event_seq = (SELECT seq FROM hooks_events WHERE id = ?))
                """, arguments: [now.timeIntervalSince1970, hookID, hookID, eventID, eventID])
        return db.changesCount
    }

    /// Removes the events no hook waits for any more.
    static func deleteDeliveredEvents(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM hooks_events
                WHERE NOT EXISTS (SELECT 1 FROM hooks_deliveries d WHERE d.event_seq = hooks_events.seq)
                """)
    }
}
