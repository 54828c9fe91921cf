/// A flyer that cannot be accepted, located by feature index, CSV line or request field.
package struct FlyerInputError: Error, Equatable, CustomStringConvertible {
    /// Where: `features[3]`, `line 12`, `body`.
    package var location: String
    /// The offending field, e.g. `properties.title`, `lat`, `geometry.coordinates[0]`.
    package var field: String?
    /// What is wrong and what to write instead.
    package var message: String
    /// The file, for imports.
    package var file: String?
    /// What kind of problem: a field's value, or an id that breaks `ResourceID`'s rule.
    package var kind: Kind

    /// What kind of problem a `FlyerInputError` is.
    package enum Kind: Sendable, Equatable {
        /// A field (or the document) is not valid.
        case invalidField
        /// The flyer's id breaks `ResourceID`'s rule.
        case invalidID
    }

    package init(
        location: String, field: String? = nil, message: String, file: String? = nil, kind: Kind = .invalidField
    ) {
        self.location = location
        self.field = field
        self.message = message
        self.file = file
        self.kind = kind
    }

    package var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return field.map { "\(prefix)\(location): \($0): \(message)" } ?? "\(prefix)\(location): \(message)"
    }
}

extension FlyerInputError {
    /// The flyers of a whole-file read (`CSVFlyers.readAll`, `GeoJSONFlyers.readAll`), or its first problem.
    static func firstProblem(of read: (flyers: [Flyer], errors: [FlyerInputError])) throws(FlyerInputError) -> [Flyer] {
        if let error = read.errors.first { throw error }
        return read.flyers
    }
}
