import Foundation
import MeridianCore

/// Training figures as people read them.
enum TrainingText {
    /// "87 (heart-rate TRIMP)" or "64 (rTSS from pace)".
    static func load(_ load: TrainingLoad) -> String {
        "\(Int(load.load.rounded())) (" + (load.method == .trimp ? "heart-rate TRIMP" : "rTSS from pace") + ")"
    }
}
