import GRDB
import MeridianStore

/// The privacy zones' table (`privacy_zones`, see `PrivacyBook`), migrated under plugin name "run-privacy", after
/// the run tracker's and the history's (it references neither).
package enum PrivacySchema {
    /// The privacy zones' migrations, oldest first.
    package static var schema: PluginSchema {
        PluginSchema(plugin: "run-privacy") { migrations in
            migrations.register("v1-privacy-zones") { db in
                try PrivacyBook.create(db)
            }
        }
    }
}
