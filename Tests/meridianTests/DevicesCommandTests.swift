import Foundation
import MeridianTesting
import Testing

/// `meridian devices` on the real binary, and a phone posting with the key it prints into `meridian serve`.
@Suite("meridian devices")
struct DevicesCommandTests {
    @Test("devices add prints a key that a phone posts with; rotate revokes it; bad names are usage errors")
    func addPostRotate() async throws {
        let served = try await ServedInstance { directory in
            """
            http: {host: 127.0.0.1, port: 0}
            providers:
              - id: phones
                type: phone
            """
        }
        defer { served.stop() }
        let db = served.directory.appendingPathComponent("meridian.sqlite").path  // ServedInstance's MERIDIAN_DB
        let name = "Zoë's 📱"
        let added = try MeridianBinary.run([
            "devices", "add", name, "--db", db, "--json", "--url", "https://m.example.net"
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
        let key = try #require(json["key"] as? String)
        let urls = try #require(json["urls"] as? [String: String])
        #expect(json["id"] as? String == name && urls["owntracks"] == "https://m.example.net/v1/feeds/owntracks")
        #expect(urls["gpslogger"]?.contains("key=\(key)&lat=%LAT&lon=%LON&timestamp=%TIME") == true)

        let basic = "Basic " + Data("\(name):\(key)".utf8).base64EncodedString()
        let phone = HTTPTestClient(port: served.client.port, headers: ["Authorization": basic])
        let location =
            #"{"_type":"location","lat":45.5,"lon":-73.6,"tst":\#(Int(Date().timeIntervalSince1970)),"acc":6,"batt":50}"#
        let posted = try await phone.request("POST", "/v1/feeds/owntracks", body: Data(location.utf8))
        #expect(posted.status == 200 && posted.text == "[]", "\(posted.status) \(posted.text)")
        #expect(try await served.provider("phones/\(name)")?["battery"] as? Double == 0.5)

        #expect(try MeridianBinary.run(["devices", "rotate", name, "--db", db]).status == 0)
        let revoked = try await phone.request("POST", "/v1/feeds/owntracks", body: Data(location.utf8))
        #expect(revoked.status == 401 && revoked.headers["www-authenticate"] == #"Basic realm="meridian""#)

        let bad = try MeridianBinary.run(["devices", "add", "a/b", "--db", db])
        #expect(bad.status == 2 && bad.stderr.contains("without '/'"))
        let missing = try MeridianBinary.run(["devices", "remove", "nobody", "--db", db])
        #expect(missing.status == 1 && missing.stderr.contains("no device named 'nobody'"))
    }
}
