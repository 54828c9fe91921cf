import MeridianCore

/// What a page's map shows, handed to the browser as JSON (`ScriptJSON`) and drawn with Leaflet by
/// `app.js`: coloured lines, markers with plain-text labels, and optionally a click that picks a position.
/// Without Leaflet or JavaScript the page shows its server-rendered picture instead.
public struct MapView: Sendable, Encodable {
    /// A polyline of `[lat, lon]` pairs.
    public struct Line: Sendable, Encodable {
        public var points: [[Double]]
        /// CSS colour.
        public var colour: String
        public var dashed: Bool

        public init(points: [Coordinate], colour: String, dashed: Bool = false) {
            self.points = points.map { [MapView.rounded($0.latitude), MapView.rounded($0.longitude)] }
            self.colour = colour
            self.dashed = dashed
        }
    }

    /// What a marker stands for; `app.js` draws each kind in its own style.
    public enum MarkerKind: String, Sendable, Encodable {
        case start, finish, mark, place, centre
    }

    /// A marker. `label` is short text on the marker (a kilometre number); `title`, `detail` and `link` fill
    /// its popup. All are shown as text, never as HTML.
    public struct Marker: Sendable, Encodable {
        public var lat: Double
        public var lon: Double
        public var kind: MarkerKind
        public var label: String?
        public var title: String?
        public var detail: String?
        public var link: String?

        public init(_ coordinate: Coordinate, kind: MarkerKind, label: String? = nil, title: String? = nil,
                    detail: String? = nil, link: String? = nil) {
            lat = MapView.rounded(coordinate.latitude)
            lon = MapView.rounded(coordinate.longitude)
            self.kind = kind
            self.label = label
            self.title = title
            self.detail = detail
            self.link = link
        }
    }

    /// A click on the map writes `lat` and `lon` into these fields of form `form` and submits it.
    public struct Pick: Sendable, Encodable {
        public var form: String
        public var lat: String
        public var lon: String

        public init(form: String, lat: String, lon: String) {
            self.form = form
            self.lat = lat
            self.lon = lon
        }
    }

    /// The basemap, when `web.tile_url` is set.
    struct Tiles: Sendable, Encodable {
        var url: String
        var attribution: String?
    }

    public var lines: [Line]
    public var markers: [Marker]
    public var pick: Pick?
    var tiles: Tiles?
    var units: String = UnitSystem.metric.rawValue

    public init(lines: [Line] = [], markers: [Marker] = [], pick: Pick? = nil) {
        self.lines = lines
        self.markers = markers
        self.pick = pick
    }

    /// Six decimals (about 0.1 m): enough for any map, and half the text.
    static func rounded(_ degrees: Double) -> Double {
        (degrees * 1e6).rounded() / 1e6
    }
}
