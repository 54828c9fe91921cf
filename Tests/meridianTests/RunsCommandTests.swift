import Foundation
import MeridianTesting
import Testing

/// The `meridian runs` history views as a new user reads them: headers, whole names, speed for rides, the
/// configured time zone and units, drafts, and page hints that keep the filters.
@Suite("meridian runs views")
struct RunsCommandTests {
    /// A temporary folder with a configuration (`extra` lines added) whose database gets `files` imported.
    struct History {
        let directory: URL
        let config: String

        init(_ files: [(String, String?)], extra: String = "") throws {
            directory = try TestData.temporaryDirectory("runs-views")
            config = directory.appendingPathComponent("meridian.yaml").path
            try "store:\n  path: runs.sqlite\n\(extra)".write(toFile: config, atomically: true, encoding: .utf8)
            for (file, name) in files {
                let imported = try MeridianBinary.run(
                    ["runs", "import", TestData.url(file).path, "--config", config]
                        + (name.map { ["--name", $0] } ?? []))
                try #require(imported.status == 0, "\(imported.stderr)")
            }
        }

        func run(_ arguments: [String]) throws -> MeridianBinary.Result {
            try MeridianBinary.run(["runs"] + arguments + ["--config", config])
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    static let ride = "fit/fitparse__garmin-edge-500-activity.fit"
    static let run = "fit/fitparse__activity-small-fenix2-run.fit"

    @Test("runs list has a header, whole words in names, speed for rides and times in the configured zone")
    func listTable() throws {
        let long = "Morning run along the river Seine and back home again"
        let history = try History([(Self.ride, nil), (Self.run, long)], extra: "time_zone: Asia/Tokyo\n")
        defer { history.remove() }
        let result = try history.run(["list"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.stdout)")
        #expect(
            lines[0].hasPrefix("started (Asia/Tokyo)") && lines[0].contains("name") && lines[0].contains("pace/speed"),
            "\(lines[0])")
        let ride = try #require(lines.first { $0.contains(" ride ") })
        #expect(ride.contains("km/h") && !ride.contains("/km "), "\(ride)")
        // 2011-09-25 13:00 UTC is 22:00 in Tokyo.
        #expect(ride.hasPrefix("2011-09-25 22:0"), "\(ride)")
        let named = try #require(lines.first { $0.contains("Morning") })
        #expect(named.contains("Morning run along the river Seine and…"), "\(named)")
        #expect(named.contains("/km"), "\(named)")
    }

    @Test("runs show uses the configured units for every figure, elevation included")
    func imperialShow() throws {
        let history = try History([(Self.run, nil)], extra: "units: imperial\n")
        defer { history.remove() }
        let id = try Self.onlyID(history)
        let result = try history.run(["show", id])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("distance 5.5 mi") && result.stdout.contains("/mi"), "\(result.stdout)")
        let ascent = try #require(result.stdout.split(separator: "\n").first { $0.contains("ascent ") })
        #expect(ascent.hasSuffix(" ft") && ascent.contains(" ft  descent"), "\(ascent)")
        // Only the records' names ("1 km", "5 km") keep metric words; no figure is in metres or kilometres.
        let figures = result.stdout.split(separator: "\n").filter { !$0.contains("[") }
        #expect(
            !figures.contains { $0.contains(" m ") || $0.hasSuffix(" m") || $0.contains(" km") || $0.contains("/km") },
            "\(result.stdout)")
    }

    @Test("an 8.9 km run that ends 70 m from its start is a loop, without a route efficiency")
    func runLoop() throws {
        let history = try History([(Self.run, nil)])
        defer { history.remove() }
        let id = try Self.onlyID(history)
        let json = try history.run(["show", id, "--json"])
        let detail = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let route = try #require((detail?["analysis"] as? [String: Any])?["route"] as? [String: Any])
        #expect(route["loop"] as? Bool == true && route["efficiency"] is NSNull, "\(route["straight_line_m"] ?? "")")
        #expect(try history.run(["show", id]).stdout.contains(", loop"))
    }

    @Test("an imported 14 s activity is saved, not a draft: only live runs have drafts")
    func importsMakeNoDrafts() throws {
        let history = try History([("fit/fitparse__Activity.fit", "Too short"), (Self.run, nil)])
        defer { history.remove() }
        let drafts = try history.run(["list", "--drafts"])
        #expect(drafts.status == 0, "\(drafts.stderr)")
        #expect(drafts.stdout.contains("No drafts."), "\(drafts.stdout)")
        #expect(try history.run(["list"]).stdout.contains("Too short"))
    }

    @Test("the next-page hint keeps the filters, and running it lists the next page")
    func continuation() throws {
        let history = try History([
            (Self.run, "Park A"), (Self.ride, "Park B"),
            ("gpx/fitotrackfork__Workout-2023-08-20-13-48-44.gpx", "Street")
        ])
        defer { history.remove() }
        let first = try history.run(["list", "--limit", "1", "--name", "Park"])
        let hint = try #require(first.stdout.split(separator: "\n").last { $0.hasPrefix("more: ") })
        #expect(hint.contains("--limit 1") && hint.contains("--name Park"), "\(hint)")
        let words = hint.dropFirst("more: meridian runs ".count).split(separator: " ").map(String.init)
        let next = try history.run(words.filter { $0 != "--config" && !$0.hasSuffix("meridian.yaml") })
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("Park") && !next.stdout.contains("Street"), "\(next.stdout)")
        #expect(!next.stdout.contains("more: "), "\(next.stdout)")
    }

    @Test("runs resume without a run says what to do in the command line's words")
    func resumeWithoutRun() async throws {
        let served = try await ServedInstance { _ in "http:\n  port: 0\nconsumers:\n  - type: run-tracker\n" }
        defer { served.stop() }
        let result = try MeridianBinary.run(
            ["runs", "resume", "--server", "http://127.0.0.1:\(served.client.port)"],
            environment: ["MERIDIAN_TOKEN": served.token ?? ""])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("meridian runs resume --id")
                && result.stderr.contains("meridian runs list --drafts"), "\(result.stderr)")
        #expect(!result.stderr.contains("POST /v1"), "\(result.stderr)")
    }

    @Test("a service address that redirects is named with where it points, and the token is not sent there")
    func redirectNamed() async throws {
        // A reverse proxy's plain-HTTP port sending everything to HTTPS, as nginx's `return 301 https://…` does.
        let script = """
            import http.server, sys
            class Redirect(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(301)
                    self.send_header("Location", "https://meridian.example/" + self.path.lstrip("/"))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                def log_message(self, *args):
                    print("auth=" + str(self.headers.get("Authorization")), flush=True)
            server = http.server.HTTPServer(("127.0.0.1", 0), Redirect)
            print("listening", server.server_address[1], flush=True)
            server.serve_forever()
            """
        let redirector = try ManagedProcess("python3", ["-c", script])
        defer { redirector.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "the redirecting server to listen") {
            redirector.output().contains("listening ")
        }
        let port = try #require(
            redirector.output().split(separator: "\n").first { $0.hasPrefix("listening ") }
                .flatMap { Int($0.dropFirst("listening ".count)) })
        let result = try MeridianBinary.run(
            ["runs", "status", "--server", "http://127.0.0.1:\(port)"],
            environment: ["MERIDIAN_TOKEN": "redirect-test-token-0123"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "redirects GET /v1/runs/active to https://meridian.example/v1/runs/active (HTTP 301)")
                && result.stderr.contains("--server"), "\(result.stderr)")
        // Asked once, at the address given; nothing went to the address it points to.
        #expect(
            redirector.output().components(separatedBy: "auth=Bearer redirect-test-token-0123").count == 2,
            "\(redirector.output())"
        )
    }

    static func onlyID(_ history: History) throws -> String {
        let list = try history.run(["list", "--json"])
        let page = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        return try #require((page?["runs"] as? [[String: Any]])?.first?["id"] as? String)
    }
}
