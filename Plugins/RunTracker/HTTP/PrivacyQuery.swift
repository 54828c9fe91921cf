import Hummingbird
import MeridianHTTP

/// The query flags of the routes that show a run's route: `keep_private=true` (the whole route, privacy zones
/// included: every caller of the API is the owner) and `relative_time=true` (exports without absolute times).
enum PrivacyQuery {
    /// `true` or `false` (the default), anything else a 400 naming the parameter.
    static func flag(_ request: Request, _ name: String) throws(APIError) -> Bool {
        switch request.uri.queryParameters[Substring(name)].map(String.init) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw APIError.badRequest("query parameter '\(name)' must be true or false, got '\(other)'")
        }
    }
}
