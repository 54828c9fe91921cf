import Foundation
import MeridianTesting
import Testing

/// The run tracker's CSS lives in its own folder (`Web/RunStyle.swift`) and reaches the browser in `/assets/app.css`.
@Suite("Run tracker CSS in the shell's stylesheet")
struct RunStyleTests {
    @Test("/assets/app.css holds the run tracker's rules after the shell's, at the URL the pages link")
    func servedWithTheShell() async throws {
        try await TrackerServer.with([]) { server in
            let page = try await server.client.request("GET", "/runs")
            let link = try #require(
                page.text.components(separatedBy: "href=\"/assets/app.css").dropFirst().first?.prefix { $0 != "\"" })
            let css = try await server.client.request("GET", "/assets/app.css\(link)")
            #expect(css.status == 200)
            let shell = try #require(css.text.range(of: ":root {"))
            for rule in [".runs td:first-child", ".charts {", ".chart svg", ".legend .ramp", ".ramp .c7"] {
                let found = try #require(css.text.range(of: rule), "\(rule) is missing from app.css")
                #expect(found.lowerBound > shell.lowerBound)
            }
        }
    }
}
