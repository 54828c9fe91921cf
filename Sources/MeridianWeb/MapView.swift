import MeridianCore

/// What a page's map shows, handed to the browser as JSON (`json`) and drawn with Leaflet by `app.js`: coloured
/// lines, markers with plain-text labels, and optionally a click that picks a position. Without Leaflet or
/// JavaScript the page shows its server-rendered picture instead.
public struct MapView: Sendable {
    /// A polyline of `[lat, lon]` pairs.
    public struct Line: Sendable {
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
    public enum MarkerKind: String, Sendable {
        case start, finish, mark, place, centre
    }

    /// A marker. `label` is short text on the marker (a kilometre number); `title`, `detail` and `link` fill
    /// its popup. All are shown as text, never as HTML.
    public struct Marker: Sendable {
        public var lat: Double
        public var lon: Double
        public var kind: MarkerKind
        public var label: String?
        public var title: String?
        public var detail: String?
        public var link: String?

        public init(
            _ coordinate: Coordinate, kind: MarkerKind, label: String? = nil, title: String? = nil,
            detail: String? = nil, link: String? = nil
        ) {
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
    public struct Pick: Sendable {
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
    struct Tiles: Sendable {
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

    /// The JSON `app.js` reads.
    var json: String {
        let lines = self.lines.map { line in
            ScriptJSON.object([
                (
                    "points",
                    "["
                        + line.points.map { "[\(ScriptJSON.number($0[0])),\(ScriptJSON.number($0[1]))]" }.joined(
                            separator: ",") + "]"
                ),
                ("colour", ScriptJSON.string(line.colour)), ("dashed", line.dashed ? "true" : "false")
            ])
        }
        let markers = self.markers.map { marker in
            ScriptJSON.object([
                ("lat", ScriptJSON.number(marker.lat)), ("lon", ScriptJSON.number(marker.lon)),
                ("kind", ScriptJSON.string(marker.kind.rawValue)), ("label", marker.label.map(ScriptJSON.string)),
                ("title", marker.title.map(ScriptJSON.string)), ("detail", marker.detail.map(ScriptJSON.string)),
                ("link", marker.link.map(ScriptJSON.string))
            ])
        }
        return ScriptJSON.object([
            ("lines", "[" + lines.joined(separator: ",") + "]"),
            ("markers", "[" + markers.joined(separator: ",") + "]"),
            (
                "pick",
                pick.map {
                    ScriptJSON.object([
                        ("form", ScriptJSON.string($0.form)), ("lat", ScriptJSON.string($0.lat)),
                        ("lon", ScriptJSON.string($0.lon))
                    ])
                }
            ),
            (
                "tiles",
                tiles.map {
                    ScriptJSON.object([
                        ("url", ScriptJSON.string($0.url)),
                        ("attribution", $0.attribution.map(ScriptJSON.string))
                    ])
                }
            ),
            ("units", ScriptJSON.string(units))
        ])
    }

    /// Six decimals (about 0.1 m): enough for any map, and half the text.
    static func rounded(_ degrees: Double) -> Double {
        (degrees * 1e6).rounded() / 1e6
    }
}
