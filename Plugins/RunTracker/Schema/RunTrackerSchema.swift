import MeridianStore

/// Every table of the run tracker, in the one order its migrations must run: the tracker's runs and points
/// (`RunSchema`, recorded under plugin name "run-tracker"), then history, records, routes, segments and training
/// load (`RunHistorySchema`, "run-history"), whose tables reference `runs`, then the privacy zones (`PrivacySchema`,
/// "run-privacy"). The names stay: stored databases record their applied migrations under them.
package enum RunTrackerSchema {
    /// The run tracker's schemas, in the order they must be applied.
    package static var schemas: [PluginSchema] { [RunSchema.schema, RunHistorySchema.schema, PrivacySchema.schema] }

    /// Creates or updates every table of the run tracker in `store`.
    package static func migrate(_ store: Store) throws(StoreError) {
        for schema in schemas { try store.migrate(schema) }
    }
}
