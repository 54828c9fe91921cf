import FlyerProximity
import Foundation
import Logging
import MeridianCore
import PostgresNIO
import Workloads

/// Text plus nearby on the PostGIS benchmark's catalogue: "the 10 nearest flyers with these words" (`q`, word
/// prefixes, `FlyerText.queries`: place kinds, prefixes of them, rare words, pairs), through Meridian's cache,
/// through Meridian without it (PostGIS's `tsvector` index, exact re-rank) and with the SQL a PostGIS user writes
/// on the same `tsvector` index: `@@` to a prefix `tsquery` with `ORDER BY geog <-> point LIMIT 10` (KNN).
struct TextBenchmark {
    let cache: any FlyerSearching
    /// Makes the cache's word index (timed apart, so that (a) is the cache's own text search).
    let makeWordIndex: () -> Void
    let database: any FlyerSearching
    let client: PostgresClient
    let queries: Int
    let seed: UInt64
    let now: Date
    let output: (String) -> Void

    func run() async throws {
        let centers = FlyerWorkload.benchmarkQueries(count: queries, seed: seed &+ 11)
        let texts = FlyerText.queries(count: queries, seed: seed)
        output(
            "text plus nearby: \(queries) queries, 10 nearest with every word of q (e.g. \(texts.prefix(5).map { "'\($0)'" }.joined(separator: ", ")))"
        )
        let before = StartupBenchmark.residentMegabytes(getpid())
        let start = DispatchTime.now().uptimeNanoseconds
        makeWordIndex()
        output(
            "  the cache's word index (made aside at the first text query after a start, the database answering meanwhile): \(NumberText.fixed(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, decimals: 2)) s, RSS \(NumberText.fixed(before, decimals: 0)) → \(NumberText.fixed(StartupBenchmark.residentMegabytes(getpid()), decimals: 0)) MB"
        )
        let cached = try await meridian(cache, centers, texts, name: "(a) Meridian, in-memory cache")
        output(cached.timing.line)
        let slowest = zip(texts, cached.nanoseconds).sorted { $0.1 > $1.1 }.prefix(5)
        output(
            "  (a) slowest: "
                + slowest.map { "'\($0.0)' \(NumberText.fixed(Double($0.1) / 1e6, decimals: 1)) ms" }.joined(
                    separator: ", "))
        let uncached = try await meridian(database, centers, texts, name: "(b) Meridian, no cache (tsvector)")
        output(uncached.timing.line)
        output(
            "  (b) returned the same ids in the same order as (a) for \(percent(agreement(cached.ids, uncached.ids)))")
        let plain = try await plainSQL(centers, texts)
        output(plain.timing.line)
        output(
            "  plain SQL returned the same ids as (a) for \(percent(agreement(cached.ids.map { $0.sorted() }, plain.ids.map { $0.sorted() }))), in the same order for \(percent(agreement(cached.ids, plain.ids))) (it orders on the sphere)"
        )
        let hits = cached.ids.reduce(0) { $0 + $1.count }
        output("  average results per query: \(NumberText.fixed(Double(hits) / Double(max(1, queries)), decimals: 2))")
        output(
            "(a) / plain SQL: \(NumberText.fixed(cached.timing.queriesPerSecond / plain.timing.queriesPerSecond, decimals: 2))× the queries/s, p99 \(NumberText.fixed(plain.timing.p99 / cached.timing.p99, decimals: 2))× lower"
        )
    }

    private func meridian(_ searcher: any FlyerSearching, _ centers: [Coordinate], _ texts: [String], name: String)
        async throws -> (timing: ProximityBenchmark.Timing, ids: [[String]], nanoseconds: [UInt64])
    {
        var nanoseconds: [UInt64] = []
        var ids: [[String]] = []
        for (center, text) in zip(centers, texts) {
            let query = NearbyQuery(center: center, limit: 10, at: now, text: try TextQuery(text))
            let start = DispatchTime.now().uptimeNanoseconds
            let page = try await searcher.nearby(query)
            nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
            ids.append(page.matches.map(\.flyer.id))
        }
        return (ProximityBenchmark.Timing(name: name, nanoseconds: nanoseconds), ids, nanoseconds)
    }

    private func plainSQL(_ centers: [Coordinate], _ texts: [String]) async throws -> (
        timing: ProximityBenchmark.Timing, ids: [[String]]
    ) {
        let logger = Logger(label: "meridian-bench")
        let time = now.timeIntervalSince1970
        return try await client.withConnection { connection in
            var nanoseconds: [UInt64] = []
            var ids: [[String]] = []
            for (center, text) in zip(centers, texts) {
                let tsquery = try TextQuery(text).tsquery
                let start = DispatchTime.now().uptimeNanoseconds
                let query: PostgresQuery = """
                    SELECT id FROM flyers
                    WHERE array_to_tsvector(string_to_array(words, ' ')) @@ \(tsquery)::tsquery
                      AND (valid_from IS NULL OR valid_from <= \(time)) AND (valid_until IS NULL OR valid_until >= \(time))
                    ORDER BY geog <-> ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography, id
                    LIMIT 10
                    """
                var found: [String] = []
                for try await id in try await connection.query(query, logger: logger).decode(String.self) {
                    found.append(id)
                }
                nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
                ids.append(found)
            }
            return (ProximityBenchmark.Timing(name: "(c) PostGIS tsvector @@ + KNN <->", nanoseconds: nanoseconds), ids)
        }
    }

    private func percent(_ share: Double) -> String {
        NumberText.fixed(share * 100, decimals: 2) + " % of queries"
    }

    private func agreement(_ a: [[String]], _ b: [[String]]) -> Double {
        Double(zip(a, b).filter { $0 == $1 }.count) / Double(max(1, a.count))
    }
}
