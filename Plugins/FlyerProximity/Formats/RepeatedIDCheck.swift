/// Remembers where each id of an input was first used, so that a repeated id is reported with
/// both places (`line 6` and `line 30002`, `features[0]` and `features[4]`).
struct RepeatedIDCheck: Sendable {
    private var firstUse: [String: Int] = [:]
    /// How a position reads in a message (`line 6`).
    private let describe: @Sendable (Int) -> String

    init(describe: @escaping @Sendable (Int) -> String) {
        self.describe = describe
    }

    /// Records `id` at `position`; throws when an earlier position used it.
    mutating func record(_ id: String, at position: Int) throws(FlyerInputError) {
        if let first = firstUse.updateValue(position, forKey: id) {
            throw FlyerInputError(
                location: describe(position), field: "id",
                message: "'\(id)' is already used by \(describe(first)); every flyer needs its own id")
        }
    }
}
