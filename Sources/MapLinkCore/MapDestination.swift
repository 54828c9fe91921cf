import MeridianCore

/// Where a map link should take the user.
package enum MapDestination: Sendable, Equatable {
    /// A point, with an optional place name, postal address (shown by styles that can carry one)
    /// and horizontal accuracy in metres (used by `geo:` URIs).
    case coordinate(Coordinate, name: String? = nil, address: String? = nil, accuracy: Double? = nil)
    /// A postal address, geocoded by the maps app.
    case address(String)
    /// A named place searched for by the maps app, optionally near a point.
    case place(name: String, near: Coordinate?)

    /// The destination for a stored flyer: its point, its title as the name, and its address.
    package static func flyer(_ place: FlyerPlace) -> MapDestination {
        .coordinate(place.coordinate, name: place.title, address: place.address)
    }
}
