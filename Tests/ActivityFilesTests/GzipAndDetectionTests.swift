import ActivityFiles
import Foundation
import MeridianTesting
import Testing

@Suite("gzip and format detection")
struct GzipAndDetectionTests {
    private func gzip(_ data: Data) throws -> Data {
        try GeneratedFiles.gzip(data)
    }

    @Test(
        "each format gzip-compressed is detected and read like the plain file",
        arguments: [
            ("fit/fitparse__garmin-fenix-5-run.fit", ActivityFormat.fit),
            ("fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx", .tcx),
            ("gpx/sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx", .gpx)
        ])
    func compressed(name: String, format: ActivityFormat) throws {
        let plain = try Data(contentsOf: TestData.url(name))
        let compressed = try gzip(plain)
        #expect(ActivityFileReader.detect(plain) == format)
        #expect(ActivityFileReader.detect(compressed.prefix(512)) == format, "detected from the first compressed bytes")
        let fromCompressed = try ActivityFileReader.read(compressed, file: name + ".gz")
        #expect(fromCompressed == (try ActivityFileReader.read(plain, file: name)))
        #expect(fromCompressed.first?.format == format)
        #expect(try Gzip.decompress(compressed) == plain)
    }

    @Test func membersBackToBackAreOneStream() throws {
        let first = Data("$GPGGA,1\n".utf8), second = Data("$GPGGA,2\n".utf8)
        #expect(try Gzip.decompress(try gzip(first) + gzip(second)) == first + second)
    }

    @Test func damagedStreamsAreRefusedClearly() throws {
        let compressed = try gzip(
            Data(repeating: UInt8(ascii: "a"), count: 100_000)
                + Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        #expect(throws: GzipError.truncated(offset: compressed.count / 2)) {
            try Gzip.decompress(compressed.prefix(compressed.count / 2))
        }
        var corrupt = compressed
        corrupt[12] ^= 0xFF
        corrupt[13] ^= 0xFF
        #expect { try Gzip.decompress(corrupt) } throws: { error in
            guard case .corrupt? = error as? GzipError else { return false }
            return "\(error)".contains("damaged")
        }
        #expect(throws: GzipError.tooLarge(limit: 10_000)) { try Gzip.decompress(compressed, limit: 10_000) }
        #expect(
            "\(GzipError.tooLarge(limit: Gzip.maximumDecompressedSize))".contains(
                "256 MiB; refused as a possible zip bomb"))
        #expect(throws: GzipError.notGzip) { try Gzip.decompress(Data("plain".utf8)) }
        #expect(throws: GzipError.trailingBytes(offset: compressed.count)) {
            try Gzip.decompress(compressed + Data("junk".utf8))
        }
        #expect { try ActivityFileReader.read(compressed.prefix(100), file: "cut.gpx.gz") } throws: { error in
            (error as? ActivityFileError)?.description.hasPrefix(
                "cut.gpx.gz: byte 100: the gzip stream ends after 100 bytes") == true
        }
    }

    @Test func detectionLooksAtTheBytesOnly() {
        #expect(
            ActivityFileReader.detect(
                Array("\u{FEFF}  <?xml version='1.0'?>\n<!-- exported -->\n<!DOCTYPE x>\n<gpx version=\"1.1\">".utf8))
                == .gpx)
        #expect(ActivityFileReader.detect(Array("<tcx:TrainingCenterDatabase xmlns:tcx=\"x\">".utf8)) == .tcx)
        #expect(ActivityFileReader.detect(Array("<kml>".utf8)) == nil)
        #expect(ActivityFileReader.detect(Array("$GPGGA,123519,4807.038,N".utf8)) == .nmea)
        #expect(ActivityFileReader.detect(Array("{\"class\":\"TPV\"}".utf8)) == .gpsd)
        // A gpsd regression log: comments, a few JSON header lines, then mostly NMEA.
        #expect(
            ActivityFileReader.detect(
                Array(
                    "# Name: x\n#\n{\"class\":\"VERSION\"}\n{\"class\":\"DEVICE\"}\n$GPGGA,1\n$GPRMC,2\n$GPGSA,3\n".utf8
                )) == .nmea)
        #expect(ActivityFileReader.detect(Array("<?xml version='1.0'?><gp".utf8)) == nil, "cut inside the root name")
        #expect(ActivityFileReader.detect([UInt8]()) == nil)
        #expect(ActivityFileReader.detect([0x1F, 0x8B]) == nil)
        #expect(ActivityFileReader.detect([14, 0x20, 0, 0, 0, 0, 0, 0] + Array(".FIT".utf8)) == .fit)
        // Not a FIT header, and no receiver sentence in it: none of the formats (refused from these bytes). Noise
        // before a first sentence is a receiver log.
        #expect(ActivityFileReader.detect([13, 0x20, 0, 0, 0, 0, 0, 0] + Array(".FIT".utf8)) == nil)
        #expect(ActivityFileReader.detect([13, 0x20, 0, 0, 0, 0, 0, 0] + Array(".FIT\n$GPRMC".utf8)) == .nmea)
    }

    @Test func notAnActivityFile() {
        #expect { try ActivityFileReader.read(Data("$GPGGA,123519".utf8), file: "run.fit") } throws: { error in
            (error as? ActivityFileError)?.description
                == "run.fit: byte 0: not a FIT, TCX or GPX file (it starts with '$GPGGA,123519'), and read as an NMEA log it gives no time-stamped fix (0 bad lines); export the activity as FIT, TCX or GPX"
        }
        // GeoJSON (Meridian's map export): compact, pretty-printed after a byte order mark, a collection, gzip-compressed.
        let feature =
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[-122.6337,38.2297]]},"properties":{}}"#
        let geoJSON = [
            Data(feature.utf8), Data("\u{FEFF}{\n  \"geometry\": {},\n  \"type\" : \"Feature\"\n}\n".utf8),
            Data(#"{"type":"FeatureCollection","features":[]}"#.utf8)
        ]
        for data in geoJSON + [try? gzip(Data(feature.utf8))].compactMap({ $0 }) {
            #expect { try ActivityFileReader.read(data, file: "run.geojson") } throws: { error in
                (error as? ActivityFileError)?.description
                    == "run.geojson: this is GeoJSON, which Meridian exports for maps but cannot import; import the activity as FIT, TCX, GPX, NMEA or gpsd JSON (to move a run between Meridians, export it as GPX or TCX)"
            }
        }
        // A gpsd report with a "type" key is still a gpsd log.
        #expect {
            try ActivityFileReader.read(Data(#"{"class":"DEVICE","type":"Feature?"}"#.utf8), file: "gpsd.json")
        } throws: { error in
            (error as? ActivityFileError)?.description.contains("read as gpsd JSON") == true
        }
        #expect { try ActivityFileReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/run.fit")) } throws: {
            error in
            (error as? ActivityFileError)?.description.hasPrefix("/nonexistent/run.fit: cannot read the file") == true
        }
    }
}
