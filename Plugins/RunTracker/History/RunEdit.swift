import Foundation
import MeridianCore

/// A change to a run's name and/or notes (the only editable fields: GPS data and metrics are immutable).
package struct RunEdit: Sendable, Equatable {
    package var name: String?
    package var notes: String?

    /// The longest name and notes accepted (a longer value is refused, never cut).
    package static let nameLimit = TextLimit(characters: 200)
    package static let notesLimit = TextLimit(characters: 10_000)

    package init(name: String? = nil, notes: String? = nil) {
        self.name = name
        self.notes = notes
    }

    /// Builds an edit from a JSON object's keys (e.g. a PATCH body); any key other than `name` and
    /// `notes` is an error that says those are the only editable fields.
    package init(fields: [String: String]) throws(RunHistoryError) {
        for key in fields.keys.sorted() where key != "name" && key != "notes" {
            throw .invalid(
                field: key,
                message:
                    "cannot be changed; only name and notes are editable (GPS data and computed metrics are immutable)")
        }
        self.init(name: fields["name"], notes: fields["notes"])
    }

    /// The edit with the name trimmed, checked against the limits.
    func validated() throws(RunHistoryError) -> RunEdit {
        var edit = self
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw .invalid(field: "name", message: "must not be empty") }
            if let problem = Self.nameLimit.problem(trimmed) { throw .invalid(field: "name", message: problem) }
            edit.name = trimmed
        }
        if let notes, let problem = Self.notesLimit.problem(notes) { throw .invalid(field: "notes", message: problem) }
        guard edit.name != nil || edit.notes != nil else {
            throw .invalid(field: "edit", message: "nothing to change; give a name and/or notes")
        }
        return edit
    }
}

/// One recorded change of a run's field.
package struct RunEditRecord: Sendable, Equatable, Codable {
    /// "name" or "notes".
    package var field: String
    package var oldValue: String
    package var newValue: String
    package var editedAt: Date
}
