import MeridianCore

/// The `Resources` key under which the map-links plugin offers its configured style and mode, so that other
/// plugins' pages ("Open in Maps" beside each flyer) link the way the user chose.
package enum MapLinkDefaultsKey: ResourceKey {
    package typealias Value = MapLinkBuilder
}
