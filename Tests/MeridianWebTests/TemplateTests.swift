import Foundation
import MeridianCore
import Testing

@testable import MeridianWeb

@Suite("Web shell: templates and page text")
struct TemplateTests {
    @Test("every shell template parses")
    func shellTemplatesParse() {
        #expect(ShellTemplates.set.parseProblems.isEmpty, "\(ShellTemplates.set.parseProblems)")
    }

    @Test("values are escaped as HTML; a script in a value shows as text")
    func escaping() throws {
        let set = TemplateSet(["t": "<p>{{title}}</p><a href=\"{{link}}\">x</a>"])
        let html = try set.render("t", ["title": "<script>alert(1)</script>", "link": "\" onclick=\"alert(1)"])
        #expect(html == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><a href=\"&quot; onclick=&quot;alert(1)\">x</a>")
    }

    @Test("a template that does not parse is an error naming it, not a crash")
    func brokenTemplate() {
        let set = TemplateSet(["broken": "{{#open}} never closed"])
        #expect(set.parseProblems["broken"] != nil)
        #expect(throws: TemplateError.self) { try set.render("broken", [String: String]()) }
        #expect(throws: TemplateError.self) { try set.render("missing", [String: String]()) }
    }

    @Test("JSON in a script block cannot end the block, and reads back the same")
    func scriptJSON() throws {
        let title = "</script><script>alert(1)</script> & \u{2028} \"quoted\" \\ \n\u{01}é"
        let text = ScriptJSON.object([
            ("title", ScriptJSON.string(title)), ("n", ScriptJSON.number(48.137123)),
            ("none", nil), ("bad", ScriptJSON.number(.nan))
        ])
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("&") && !text.contains("none"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(decoded["title"] as? String == title)
        #expect(decoded["n"] as? Double == 48.137123)
        #expect(decoded["bad"] is NSNull)
    }

    @Test("a map's JSON carries lines, markers and the pick target")
    func mapJSON() throws {
        let point = try Coordinate(latitude: 48.1234567, longitude: -0.5)
        var view = MapView(
            lines: [MapView.Line(points: [point, point], colour: "#fff", dashed: true)],
            markers: [MapView.Marker(point, kind: .place, title: "<b>x</b>", link: "geo:1,2")],
            pick: MapView.Pick(form: "f", lat: "lat", lon: "lon"))
        view.units = "imperial"
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(view.json.utf8)) as? [String: Any])
        let line = try #require((decoded["lines"] as? [[String: Any]])?.first)
        #expect((line["points"] as? [[Double]])?.first == [48.123457, -0.5] && line["dashed"] as? Bool == true)
        let marker = try #require((decoded["markers"] as? [[String: Any]])?.first)
        #expect(
            marker["title"] as? String == "<b>x</b>" && marker["kind"] as? String == "place" && marker["label"] == nil)
        #expect((decoded["pick"] as? [String: String])?["form"] == "f" && decoded["units"] as? String == "imperial")
        #expect(decoded["tiles"] == nil)
    }

    @Test("forms: URL-encoded and multipart bodies, with files")
    func forms() throws {
        let plain = FormData.urlEncoded("token=a%2Bb+c&next=%2Fruns%3Fq%3Dx&empty=")
        #expect(plain["token"] == "a+b c" && plain["next"] == "/runs?q=x" && plain["empty"] == "")
        let body =
            "--XyZ\r\nContent-Disposition: form-data; name=\"format\"\r\n\r\ncsv\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\nid,title\r\n1,x\r\n"
            + "--XyZ--\r\n"
        let form = try FormData.multipart(Data(body.utf8), contentType: "multipart/form-data; boundary=XyZ")
        #expect(form["format"] == "csv")
        #expect(form.files.count == 1)
        #expect(form.files.first?.filename == "a.csv")
        #expect(form.files.first.map { String(decoding: $0.data, as: UTF8.self) } == "id,title\r\n1,x")
        #expect(throws: (any Error).self) {
            try FormData.multipart(
                Data("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".utf8),
                contentType: "multipart/form-data; boundary=XyZ")
        }
        #expect(throws: (any Error).self) { try FormData.multipart(Data(), contentType: "multipart/form-data") }
    }

    @Test("after sign-in only paths on this server are followed")
    func safeNext() {
        #expect(SignInPage.safeNext("/runs?q=a") == "/runs?q=a")
        for hostile in ["//evil.example", "https://evil.example", "/\\evil.example", "runs", nil, "/a\nb"] {
            #expect(SignInPage.safeNext(hostile) == "/")
        }
    }

    @Test("dates and times in the configured time zone")
    func dates() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let format = PageFormat(timeZone: zone, units: .metric)
        let date = Date(timeIntervalSince1970: 1_714_550_400)  // 2024-05-01T08:00:00Z
        #expect(format.day(date) == "Wed 1 May 2024")
        #expect(format.time(date) == "04:00")
        #expect(format.isoDay(date) == "2024-05-01")
        #expect(format.month(date) == "May 2024")
    }
}
