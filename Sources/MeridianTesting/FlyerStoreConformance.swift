import FlyerProximity
import Foundation
import MeridianCore

/// Checks the rules every `FlyerStore` must follow, whatever keeps the flyers. Any backend runs it against a
/// new, empty store of its own:
///
/// ```swift
/// let violations = try await FlyerStoreConformance(store: store).violations()
/// #expect(violations.isEmpty, "\(violations)")
/// ```
///
/// It checks that: an empty store has no flyers; every field comes back as written (points and areas); a
/// batch is all or nothing (an existing id in `create` mode, an id twice in one batch); `upsert` replaces;
/// `delete` says whether there was a flyer; reads by id, by ids and in id order agree; the change log names
/// every written and deleted id and its latest number only grows; writes from a source count what they
/// wrote; and the store's own search (`makeDatabaseSearch`, `searcherForOneQuery`) answers nearest first,
/// within the radius, with exact distances.
package struct FlyerStoreConformance {
    package let store: any FlyerStore

    package init(store: any FlyerStore) {
        self.store = store
    }

    /// Every rule the store breaks, as a sentence naming what was expected; empty when it follows them all.
    package func violations() async throws -> [String] {
        var found: [String] = []
        func check(_ condition: Bool, _ rule: @autoclosure () -> String) {
            if !condition { found.append(rule()) }
        }
        func expectError(
            _ rule: String, _ matches: (FlyerStoreError) -> Bool, _ body: () async throws(FlyerStoreError) -> Void
        ) async {
            do {
                try await body()
                found.append(rule + " (it succeeded)")
            } catch {
                if !matches(error) { found.append(rule + " (it failed with: \(error))") }
            }
        }
        let all = try Self.sample()
        check(try await store.all().isEmpty, "a new store holds no flyers")
        check(try await store.flyer(id: "none") == nil, "a missing id reads as nil")
        let start = try await store.lastChange()

        try await store.write(all, mode: .create)
        let sorted = all.sorted { $0.id < $1.id }
        check(try await store.all() == sorted, "every field of every flyer comes back as written, in id order")
        check(try await store.flyer(id: all[0].id) == all[0], "a flyer read by id is the one written")
        check(
            try await store.flyers(ids: [all[1].id, "none", all[2].id]).sorted { $0.id < $1.id }
                == [all[1], all[2]].sorted { $0.id < $1.id },
            "reading by ids returns the stored ones and leaves out missing ids")
        let written = try await store.changes(after: start)
        check(
            written.latest > start && written.ids == Set(all.map(\.id)),
            "the change log names every written id after the change before the write")

        let intruder = Flyer(
            id: "intruder", title: "Intruder", geometry: .point(try Coordinate(latitude: 1, longitude: 1)))
        await expectError(
            "writing an existing id in create mode fails with duplicateID and writes nothing",
            { if case .duplicateID(all[0].id) = $0 { true } else { false } }
        ) { () async throws(FlyerStoreError) in
            try await store.write([intruder, all[0]], mode: .create)
        }
        await expectError(
            "an id twice in one batch fails with repeatedID and writes nothing",
            { if case .repeatedID("twice", first: 0, second: 1) = $0 { true } else { false } }
        ) { () async throws(FlyerStoreError) in
            try await store.write([intruder.with(id: "twice"), intruder.with(id: "twice")], mode: .upsert)
        }
        check(try await store.flyers(ids: ["intruder", "twice"]).isEmpty, "a failed batch writes none of its flyers")

        let beforeEdit = try await store.lastChange()
        var moved = all[0]
        moved.title = "Moved"
        moved.geometry = .point(try Coordinate(latitude: 48.8600, longitude: 2.3400))
        try await store.write([moved], mode: .upsert)
        check(try await store.flyer(id: moved.id) == moved, "upsert replaces the stored flyer")
        check(try await store.delete(id: all[1].id), "deleting a stored flyer says it was there")
        check(!(try await store.delete(id: all[1].id)), "deleting a missing flyer says it was not there")
        check(try await store.flyer(id: all[1].id) == nil, "a deleted flyer is gone")
        let edited = try await store.changes(after: beforeEdit)
        check(
            edited.latest > beforeEdit && edited.ids == [moved.id, all[1].id],
            "the change log names replaced and deleted ids")
        check(try await store.lastChange() == edited.latest, "lastChange is the latest logged change")

        let count = try await store.write(from: FlyerArraySource([intruder]), mode: .upsert, progress: nil)
        let fromSource = try await store.flyer(id: intruder.id)
        check(count == 1 && fromSource == intruder, "a write from a source returns how many it wrote and writes them")

        let stored = try await store.all()
        for (name, searcher) in [
            ("makeDatabaseSearch", store.makeDatabaseSearch()), ("searcherForOneQuery", try store.searcherForOneQuery())
        ] {
            let center = try Coordinate(latitude: 48.8566, longitude: 2.3522)
            let answer = try await searcher.nearby(
                NearbyQuery(center: center, radius: 2_000, limit: 10, at: Self.instant))
            let ids = answer.matches.map(\.flyer.id)
            // "farther" was deleted, "outside" is 5.5 km away, "near" was moved 0.97 km away.
            check(
                ids == ["area", "near", "farthest"],
                "\(name): nearest first within 2 km, the area around the centre at 0 m (got \(ids))")
            check(
                answer.matches.allSatisfy { match in stored.contains(match.flyer) },
                "\(name): matches carry the stored flyers")
            check(
                answer.matches.map(\.distance) == answer.matches.map(\.distance).sorted()
                    && answer.matches.first?.distance == 0,
                "\(name): distances grow and an area holding the centre is at 0 m")
            check(try await searcher.flyer(id: "near") == stored.first { $0.id == "near" }, "\(name): a flyer by id")
        }
        return found
    }

    /// When the sample's flyers are judged (all of them valid then).
    static let instant = Date(timeIntervalSince1970: 1_750_000_000)

    /// Flyers north of Paris's centre at growing distances, one far outside 2 km, one area around the centre, and
    /// every optional field set on one of them.
    static func sample() throws -> [Flyer] {
        func point(_ id: String, _ north: Double) throws -> Flyer {
            Flyer(
                id: id, title: id.capitalized,
                geometry: .point(try Coordinate(latitude: 48.8566 + north, longitude: 2.3522)))
        }
        var near = try point("near", 0.001)
        near.description = "Fresh bread, line one\nline two — ünïcødé 🍞"
        near.address = "1 Rue de Rivoli, Paris"
        near.category = "food"
        near.url = "https://example.org/bread"
        near.radiusM = 250
        near.validFrom = Date(timeIntervalSince1970: 1_700_000_000)
        near.validUntil = Date(timeIntervalSince1970: 1_800_000_000)
        let ring = try [(48.85, 2.34), (48.85, 2.36), (48.86, 2.36), (48.86, 2.34), (48.85, 2.34)].map {
            try Coordinate(latitude: $0.0, longitude: $0.1)
        }
        let area = Flyer(id: "area", title: "Area", geometry: .polygon([ring]))
        return [near, try point("farther", 0.002), try point("farthest", 0.01), try point("outside", 0.05), area]
    }
}

extension Flyer {
    /// This flyer under another id.
    fileprivate func with(id: String) -> Flyer {
        var copy = self
        copy.id = id
        return copy
    }
}
