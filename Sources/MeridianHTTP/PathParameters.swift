import Foundation
import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded: `/v1/flyers/x%20y%2Fz` names the flyer `x y/z`,
    /// `caf%C3%A9` names `café`, `%25` names `%` (a `+` stays a `+`). A parameter that is not valid
    /// percent-encoded UTF-8 is a 400 naming it. Every `{id}` route reads its id through this.
    public func decoded(_ name: String) throws(APIError) -> String {
        guard let raw = self.get(name) else {
            throw APIError.badRequest("the path has no '\(name)' segment")
        }
        guard let text = raw.removingPercentEncoding else {
            throw APIError.badRequest(
                "path parameter '\(name)' is not valid percent-encoded UTF-8: '\(raw)'; encode '%' as %25")
        }
        return text
    }
}
