import Foundation
import MeridianCore

/// OwnTracks' one-scan set-up (owntracks.org/booklet/features/remoteconfig): an `owntracks:///config?inline=` link
/// carrying a base64 `_type: configuration` for HTTP mode with this server's URL, the device name and its key, and
/// remote commands allowed (Meridian drives the sampling through them).
enum OwnTracksSetup {
    /// The configuration the link carries.
    static func configuration(url: String, name: String, key: String) -> [String: Any] {
        [
            "_type": "configuration", "mode": 3, "url": url, "auth": true, "username": name, "password": key,
            "deviceId": name,
            "cmd": true, "remoteConfiguration": true
        ]
    }

    /// The link; base64's `+`, `/` and `=` are percent-encoded so that no URL parser reads them as anything else.
    static func link(url: String, name: String, key: String) -> String {
        let json =
            (try? JSONSerialization.data(
                withJSONObject: configuration(url: url, name: name, key: key), options: [.sortedKeys])) ?? Data()
        return "owntracks:///config?inline=" + PercentEncoding.encoded(json.base64EncodedString())
    }
}
