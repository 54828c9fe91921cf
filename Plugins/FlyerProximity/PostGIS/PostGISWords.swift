import Logging
import PostgresNIO

/// Gives the flyers stored before text search (`words` still NULL after the migration `flyers.words.v1`) their
/// words (`SearchWords`), a few thousand per statement, so PostgreSQL's text index finds them too.
enum PostGISWords {
    /// Fills `words` where it is NULL; returns how many flyers it gave words.
    static func fill(_ client: PostgresClient, logger: Logger) async throws -> Int {
        var filled = 0
        var folder = SearchWords()
        while true {
            var ids: [String] = []
            var words: [String] = []
            let rows = try await client.query(
                "SELECT id, title, description, address, category FROM flyers WHERE words IS NULL LIMIT 5000",
                logger: logger)
            for try await (id, title, description, address, category) in rows.decode(
                (String, String, String?, String?, String?).self)
            {
                ids.append(id)
                words.append(folder.stored(ofFields: [title, description, address, category]))
            }
            guard !ids.isEmpty else { return filled }
            try await client.query(
                """
                UPDATE flyers SET words = given.words FROM unnest(\(ids)::text[], \(words)::text[]) AS given(id, words)
                WHERE flyers.id = given.id
                """, logger: logger)
            filled += ids.count
        }
    }
}
