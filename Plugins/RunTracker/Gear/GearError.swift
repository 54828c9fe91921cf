/// Problems with gear requests; each message names the item or the input and says what to do.
package enum GearError: Error, CustomStringConvertible, Equatable {
    /// No gear has this id or name.
    case notFound(String)
    /// Another item has this name.
    case exists(name: String)
    /// A field is not acceptable.
    case invalid(field: String, message: String)

    package var description: String {
        switch self {
        case .notFound(let key):
            return "no gear with id or name '\(key)'; list gear with `meridian gear list` or GET /v1/gear"
        case .exists(let name):
            return "gear named '\(name)' exists already; choose another name"
        case .invalid(let field, let message):
            return "\(field): \(message)"
        }
    }
}
