/// A count with its noun in the right number: "1 flyer", "2 flyers", "0 flyers".
public enum Counted {
    /// `count` and `singular`, or `plural` (default: `singular` + "s") unless the count is 1.
    public static func string(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
