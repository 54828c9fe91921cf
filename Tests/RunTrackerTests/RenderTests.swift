import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Render: route pictures")
struct RenderTests {
    @Test("the SVG is well-formed XML with start, finish, one mark per km (or mile) and a profile")
    func svg() async throws {
        let run = Fixtures.run(
            "pic", day: 0, name: "Hill <repeats>", duration: 1800, pauses: [(offset: 900, length: 45)])
        let tracked = try #require(RunImport.track(run.recording, id: run.id, name: run.name, activity: run.activity))
        let points = tracked.points
        let summary = tracked.engine.summary(at: run.startedAt.addingTimeInterval(1800))
        let routeLength = RunProgress(points: points, start: run.startedAt).totalDistance
        let directory = try TestData.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: directory) }
        for units in UnitSystem.allCases {
            let svg = RouteRenderer(units: units).svg(run: summary, points: points)
            let file = directory.appendingPathComponent("\(units).svg")
            try svg.write(to: file, atomically: true, encoding: .utf8)
            let lint = try await ProgramRun.run("xmllint", ["--noout", file.path])
            #expect(lint.status == 0, "\(lint.stderr)")
            #expect(svg.contains(">Start</text>") && svg.contains(">Finish</text>"))
            #expect(svg.contains("Hill &lt;repeats&gt;"))
            let unit = units == .metric ? 1000 : UnitSystem.metresPerMile
            let marks = svg.components(separatedBy: "r=\"8\" fill=\"#fff\"").count - 1
            #expect(marks == Int(routeLength / unit))
            #expect(svg.contains("stroke-dasharray"))  // the pause is drawn dashed
            #expect(svg.contains(units == .metric ? "1 km</text>" : "1 mi</text>"))
        }
    }

    @Test("a run without positions still renders, saying so")
    func empty() {
        let summary = RunSummary(
            id: "none", name: "Treadmill", activity: .run, state: .stopped, startedAt: Fixtures.day0)
        let svg = RouteRenderer(units: .metric).svg(run: summary, points: [])
        #expect(svg.contains("No GPS positions recorded"))
        #expect(svg.hasSuffix("</svg>\n"))
    }
}
