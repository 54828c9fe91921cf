import ActivityFiles
import MeridianCore
import NMEA

/// Options of a `replay` provider entry.
package struct ReplayOptions: Decodable, Sendable, Equatable {
    /// The track file; a relative path starts at the configuration file's folder.
    package var file: String
    package var format: TrackFormat = .auto
    /// 1 real time, 10 ten times faster, 0 as fast as possible.
    package var speed: Double = 1
    /// Start again at the end of the file.
    package var loop = false
    /// Shift timestamps so the replay looks live (the first fix of each pass is "now").
    package var retime = false
    /// NMEA sentences without a checksum: rejected (`required`) or accepted (`optional`).
    package var checksum: ChecksumPolicy = .required

    package init(
        file: String, format: TrackFormat = .auto, speed: Double = 1, loop: Bool = false,
        retime: Bool = false, checksum: ChecksumPolicy = .required
    ) {
        self.file = file
        self.format = format
        self.speed = speed
        self.loop = loop
        self.retime = retime
        self.checksum = checksum
    }

    enum CodingKeys: String, CodingKey { case file, format, speed, loop, retime, checksum }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        format = try container.decodeIfPresent(TrackFormat.self, forKey: .format) ?? format
        speed = try container.decodeIfPresent(Double.self, forKey: .speed) ?? speed
        loop = try container.decodeIfPresent(Bool.self, forKey: .loop) ?? loop
        retime = try container.decodeIfPresent(Bool.self, forKey: .retime) ?? retime
        checksum = try container.decodeIfPresent(ChecksumPolicy.self, forKey: .checksum) ?? checksum
    }

    /// The documentation of each option, for `meridian plugins`.
    package static let info: [OptionInfo] = [
        OptionInfo(
            "file", "path",
            "NMEA log, GPX 1.0/1.1 or gpsd JSON lines (gpspipe -w) to replay; relative to the configuration file's folder"
        ),
        OptionInfo(
            "format", "auto|nmea|gpx|gpsd", default: "auto", "file format; auto detects it from the first bytes"),
        OptionInfo("speed", "number 0...1000", default: "1", "1 real time, 10 ten times faster, 0 as fast as possible"),
        OptionInfo("loop", "boolean", default: "false", "start again at the end of the file"),
        OptionInfo("retime", "boolean", default: "false", "shift timestamps so each pass starts now"),
        OptionInfo(
            "checksum", "required|optional", default: "required",
            "NMEA sentences without a checksum are rejected or accepted")
    ]
}
