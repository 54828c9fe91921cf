/// A configuration problem, located by file, line and key path, with what was expected.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The file the value came from, when known.
    public var file: String?
    /// 1-based line of the offending value, when known.
    public var line: Int?
    /// Key path such as `providers[0].baud` (empty for the whole document).
    public var path: String
    /// What is wrong and what to write instead.
    public var message: String

    public init(file: String? = nil, line: Int? = nil, path: String, message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }

    public var description: String {
        var location = file ?? "configuration"
        if let line { location += ":\(line)" }
        return path.isEmpty ? "\(location): \(message)" : "\(location): \(path): \(message)"
    }
}

/// A string enumeration whose allowed values are listed in configuration errors.
public protocol ConfigEnum: CaseIterable, RawRepresentable, Decodable where RawValue == String {}

extension UnitSystem: ConfigEnum {}
