import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Shoes and bikes: the distance summed from their runs after edits, deletes, restores and purges; the default of an
/// activity on new runs; retirement; and the run that took an item past its retirement distance.
@Suite("Gear: mileage from the runs")
struct GearTests {
    @Test("mileage is the start distance plus the saved runs: after edits, deletes, restores, reassignments, purges")
    func mileage() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let book = GearBook(store: fixture.store)
        let shoes = try await book.add(
            GearChange(name: "Pegasus 40", activity: .run, startDistance: 10_000, isDefault: true))
        #expect(shoes.kind == "shoes" && shoes.default && shoes.distanceM == 10_000 && shoes.runCount == 0)
        let bike = try await book.add(GearChange(name: "Gravel", activity: .ride))
        #expect(bike.kind == "bike" && !bike.default)

        let runs = (0..<3).map { Fixtures.run("r\($0)", day: $0, duration: 600, seed: UInt64($0 + 1)) }
        for run in runs { try fixture.insert(run) }
        try fixture.insert(Fixtures.run("ride", day: 3, activity: .ride, duration: 600, pace: 120))
        let distances = try await runs.asyncMap { try await fixture.history.summary(id: $0.id).distance }
        func pegasus() async throws -> Gear { try await book.item("Pegasus 40") }
        // New runs of the activity get its default; the ride does not.
        #expect(try await pegasus().runCount == 3)
        #expect(abs(try await pegasus().distanceM - (10_000 + distances.reduce(0, +))) < 1e-6)
        #expect(try await book.ofRun("ride") == nil)

        // An edit of the run (its name) changes nothing; an edit of the item's start distance shows at once.
        _ = try await fixture.history.edit(id: "r0", RunEdit(name: "Renamed"))
        _ = try await book.update("Pegasus 40", GearChange(startDistance: 12_000))
        #expect(abs(try await pegasus().distanceM - (12_000 + distances.reduce(0, +))) < 1e-6)

        // A deleted run leaves its distance out until it is restored.
        _ = try await fixture.history.delete(ids: ["r1"])
        #expect(try await pegasus().runCount == 2)
        #expect(abs(try await pegasus().distanceM - (12_000 + distances[0] + distances[2])) < 1e-6)
        _ = try await fixture.history.restore(ids: ["r1"])
        #expect(abs(try await pegasus().distanceM - (12_000 + distances.reduce(0, +))) < 1e-6)

        // Reassigned: the distance moves from one item to the other.
        let trail = try await book.add(GearChange(name: "Trail", activity: .run))
        let moved = try #require(try await book.assign(String(trail.id), runID: "r2"))
        #expect(moved.gear.name == "Trail" && abs(moved.distanceAfterM - distances[2]) < 1e-6)
        #expect(abs(try await pegasus().distanceM - (12_000 + distances[0] + distances[1])) < 1e-6)
        #expect(try await book.assign(nil, runID: "r2") == nil)
        #expect(try await book.item("Trail").runCount == 0)

        // Purged after the retention: gone for good.
        _ = try await fixture.history.delete(ids: ["r0"], now: Fixtures.day0)
        #expect(try await fixture.history.purgeExpired(now: Fixtures.day0.addingTimeInterval(31 * 86_400)) == 1)
        #expect(try await pegasus().runCount == 1)
        #expect(abs(try await pegasus().distanceM - (12_000 + distances[1])) < 1e-6)

        // Deleting an item leaves its runs without gear.
        try await book.delete("Pegasus 40")
        #expect(try await book.ofRun("r1") == nil)
        await #expect(throws: GearError.notFound("Pegasus 40")) { try await pegasus() }
    }

    @Test("the run that takes an item past its retirement distance says so; a retired item is no default")
    func retirement() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let book = GearBook(store: fixture.store)
        let runs = (0..<3).map { Fixtures.run("r\($0)", day: $0, duration: 600, seed: UInt64($0 + 1)) }
        _ = try await book.add(GearChange(name: "Shoes", activity: .run, isDefault: true))
        for run in runs { try fixture.insert(run) }
        let distances = try await runs.asyncMap { try await fixture.history.summary(id: $0.id).distance }
        // Retire within the second run.
        _ = try await book.update("Shoes", GearChange(retireDistance: distances[0] + distances[1] / 2))
        let crossed = try await runs.asyncMap { try await book.ofRun($0.id)?.passedRetirement }
        #expect(crossed == [false, true, false])
        let item = try await book.item("Shoes")
        #expect(item.pastRetirement && item.remainingM == 0)
        let detail = try await fixture.history.detail(id: "r1")
        #expect(detail.gear?.passedRetirement == true)
        #expect(detail.gear?.text(units: .metric).contains("this run took it past its retirement distance") == true)
        // Without the first run the third one is the one that crosses it.
        _ = try await fixture.history.delete(ids: ["r0"])
        #expect(
            try await Array(runs.dropFirst()).asyncMap { try await book.ofRun($0.id)?.passedRetirement } == [
                false, true
            ])

        let retired = try await book.update("Shoes", GearChange(retired: true))
        #expect(retired.retiredAt != nil && !retired.default)
        try fixture.insert(Fixtures.run("later", day: 5, duration: 600))
        #expect(try await book.ofRun("later") == nil)
        await #expect(throws: GearError.self) { try await book.update("Shoes", GearChange(isDefault: true)) }
    }

    @Test("bad input: names taken or empty, negative distances, unknown activities and items")
    func refusals() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let book = GearBook(store: fixture.store)
        _ = try await book.add(GearChange(name: "One", activity: .run))
        await #expect(throws: GearError.exists(name: "One")) {
            try await book.add(GearChange(name: " One ", activity: .run))
        }
        await #expect(throws: GearError.self) { try await book.add(GearChange(name: "  ", activity: .run)) }
        await #expect(throws: GearError.self) { try await book.add(GearChange(name: "12", activity: .run)) }
        await #expect(throws: GearError.self) {
            try await book.add(GearChange(name: "Two", activity: .run, startDistance: -1))
        }
        await #expect(throws: GearError.self) {
            try await book.add(GearChange(name: "Two", activity: .run, retireDistance: 0))
        }
        #expect(throws: GearError.self) { try GearChange.activity("swim") }
        await #expect(throws: RunHistoryError.notFound(runID: "nope")) { try await book.assign("One", runID: "nope") }
        #expect(try await book.list().map(\.name) == ["One"])
    }

    @Test("/v1/gear: create, list, change, assign a run, delete, and the errors")
    func routes() async throws {
        try await TrackerServer.with([Fixtures.run("r0", day: 0, duration: 600)]) { server in
            let created = try await server.call(
                "POST", "/v1/gear",
                #"{"name": "Pegasus", "activity": "run", "start_distance_m": 5000, "retire_distance_m": 800000, "default": true}"#
            )
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(try created.json()["id"] as? Int)
            #expect(try created.json()["kind"] as? String == "shoes")
            #expect(
                try await server.call("POST", "/v1/gear", #"{"name": "Pegasus", "activity": "run"}"#).errorCode
                    == "gear_exists")
            let unknown = try await server.call("POST", "/v1/gear", #"{"name": "X", "activity": "run", "colour": 1}"#)
            #expect(unknown.status == 400 && unknown.text.contains("colour"))
            #expect(try await server.call("GET", "/v1/gear/99").errorCode == "gear_not_found")

            let assigned = try await server.call("PUT", "/v1/runs/r0/gear", #"{"gear_id": \#(id)}"#)
            #expect(assigned.status == 200, "\(assigned.text)")
            let gear = try #require((try assigned.json()["gear"] as? [String: Any])?["gear"] as? [String: Any])
            #expect(gear["run_count"] as? Int == 1)
            let list = try #require(try await server.call("GET", "/v1/gear").json()["gear"] as? [[String: Any]])
            #expect(list.count == 1 && (list[0]["distance_m"] as? Double ?? 0) > 5000)
            let detail = try await server.call("GET", "/v1/runs/r0").json()
            #expect(((detail["gear"] as? [String: Any])?["gear"] as? [String: Any])?["name"] as? String == "Pegasus")

            let patched = try await server.call("PATCH", "/v1/gear/Pegasus", #"{"retire_distance_m": null}"#)
            let patchedBody = try patched.json()
            #expect(patched.status == 200 && patchedBody["retire_distance_m"] is NSNull)
            let page = try await server.call("GET", "/records")
            #expect(page.text.contains("id=\"gear-title\"") && page.text.contains("Pegasus"))

            #expect(try await server.call("DELETE", "/v1/runs/r0").status == 200)
            let gone = try await server.call("PUT", "/v1/runs/r0/gear", #"{"gear_id": null}"#)
            #expect(gone.status == 410 && gone.errorCode == "run_deleted")
            #expect(try await server.call("DELETE", "/v1/gear/\(id)").status == 204)
            #expect(try await server.call("GET", "/v1/gear").json()["gear"] as? [Any] != nil)
        }
    }
}

extension Array {
    /// `transform` applied to each element in order, awaiting each.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
