import Foundation
import MeridianCore

/// What to list: a page of saved runs, newest first, optionally filtered.
package struct RunListQuery: Sendable, Equatable {
    /// Runs per page, 1...200.
    package var limit: Int
    /// Where the previous page ended (`RunPage.nextCursor`), or `nil` for the first page.
    package var cursor: RunCursor?
    /// Case-insensitive substring of the name.
    package var name: String?
    /// Runs started at or after this moment.
    package var from: Date?
    /// Runs started before this moment.
    package var to: Date?
    /// Only runs of this activity.
    package var activity: Activity?
    /// List the deleted runs that can still be restored instead of the saved ones.
    package var deleted: Bool
    /// List the drafts (stopped runs too short to save, not deleted) instead of the saved runs.
    package var drafts: Bool

    package static let limits = 1...200

    package init(
        limit: Int = 50, cursor: RunCursor? = nil, name: String? = nil, from: Date? = nil, to: Date? = nil,
        activity: Activity? = nil, deleted: Bool = false, drafts: Bool = false
    ) {
        self.limit = min(max(limit, Self.limits.lowerBound), Self.limits.upperBound)
        self.cursor = cursor
        self.name = name
        self.from = from
        self.to = to
        self.activity = activity
        self.deleted = deleted
        self.drafts = drafts
    }

    /// Parses the `deleted` flag: `true` or `false`; anything else is an `invalid` error naming the parameter.
    package static func parseDeleted(_ text: String) throws(RunHistoryError) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default:
            throw .invalid(
                field: "query parameter 'deleted'",
                message: "must be true (deleted runs) or false (saved runs), got '\(text)'")
        }
    }

    /// Parses a `from`/`to` bound: an ISO 8601 date-time, or a bare date (`2024-05-01`), which is midnight in
    /// `timeZone` (the configured `time_zone`; UTC when not given) and as `to` means the end of that day (the whole
    /// day is included).
    package static func parseBound(
        _ text: String, field: String, isUpperBound: Bool,
        timeZone: TimeZone = .gmt
    ) throws(RunHistoryError) -> Date {
        guard let date = ISO8601.date(from: text) else {
            throw .invalid(field: field, message: "'\(text)' is not a date; give 2024-05-01 or 2024-05-01T07:30:00Z")
        }
        guard let day = LocalDay.bounds(of: text, in: timeZone) else { return date }
        return isUpperBound ? day.end : day.start
    }
}

/// A position in the newest-first order: the last run of a page. Opaque to clients.
package struct RunCursor: Sendable, Equatable {
    package var startedAt: Double
    package var id: String

    package init(startedAt: Double, id: String) {
        self.startedAt = startedAt
        self.id = id
    }

    /// The text form: base64url of the exact start time bits and the id.
    package var token: String {
        let text = String(startedAt.bitPattern, radix: 16) + ":" + id
        return Base64URL.encoded(text)
    }

    /// Reads `token`; anything else is an `invalid` error naming the cursor.
    package init(token: String) throws(RunHistoryError) {
        guard let bytes = Base64URL.decoded(token), let text = String(validating: bytes, as: UTF8.self),
            let colon = text.firstIndex(of: ":"), let bits = UInt64(text[..<colon], radix: 16)
        else {
            throw .invalid(
                field: "cursor",
                message: "'\(token)' is not a cursor from a previous page; omit it to start from the newest run")
        }
        self.init(startedAt: Double(bitPattern: bits), id: String(text[text.index(after: colon)...]))
    }
}

/// One page of runs, newest first.
package struct RunPage: Sendable, Encodable {
    package var runs: [RunListItem]
    /// Pass as `cursor` to get the next page; `null` on the last page.
    @NullWhenAbsent package var nextCursor: String?
}

/// A run in a list: the run object of the run tracker, plus `deleted_at` and `purge_at` (`null` unless deleted).
package struct RunListItem: Sendable, Encodable {
    package var run: RunSummary
    package var deletedAt: Date?
    /// When a deleted run is purged for good.
    package var purgeAt: Date?

    enum CodingKeys: String, CodingKey {
        case deletedAt, purgeAt
    }

    package func encode(to encoder: any Encoder) throws {
        try run.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deletedAt, forKey: .deletedAt)
        try container.encode(purgeAt, forKey: .purgeAt)
    }
}
