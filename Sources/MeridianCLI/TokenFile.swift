import Foundation
import MeridianCore

#if canImport(Glibc)
    import Glibc
#endif

/// The API token `meridian serve` makes on its first start when none is configured (`http.token`, `MERIDIAN_TOKEN`)
/// and `http.open_loopback` is not set: 256 random bits as hex, in `<database>.token` beside the database, readable
/// by its owner only. The commands that talk to the service read it from there, so that they need no set-up on the
/// same machine.
public enum TokenFile {
    /// Where the token of the service whose database is at `database` lives.
    public static func path(database: String) -> String {
        database + ".token"
    }

    /// The token in the file at `path`; nil when there is no such file. A file that cannot be read, or that holds no
    /// token, is a `CommandFailure` saying what to do.
    public static func read(_ path: String) throws -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            let reason = access(path, R_OK) == 0 ? "not a readable file" : String(cString: strerror(errno))
            throw CommandFailure(
                "cannot read the service's token file \(path) (\(reason)); run this as the service's user (e.g. sudo -u meridian meridian …) or set MERIDIAN_TOKEN"
            )
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= ConfigLoader.minimumTokenLength else {
            throw CommandFailure(
                "the token file \(path) holds no token of \(ConfigLoader.minimumTokenLength) or more characters; delete it and `meridian serve` makes a new one"
            )
        }
        return token
    }

    /// The token in the file at `path`, made first when there is none (`created`). A file that group or others may
    /// read is refused, as the TLS key is: anyone who reads it can use the service.
    public static func readOrCreate(_ path: String) throws -> (token: String, created: Bool) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            throw CommandFailure(
                "the token file \(path) is open to group or others (mode \(String(status.st_mode & 0o777, radix: 8))); run: chmod 600 \(path)"
            )
        }
        if let token = try read(path) { return (token, false) }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno
            // Another process made it first: use its token.
            if reason == EEXIST, let token = try read(path) { return (token, false) }
            throw CommandFailure(
                "cannot write the token file \(path) (\(String(cString: strerror(reason)))); let the service's user write the database's folder, or set http.token"
            )
        }
        defer { close(descriptor) }
        let line = Array((token + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
            let reason = errno
            unlink(path)
            throw CommandFailure(
                "cannot write the token file \(path) (\(String(cString: strerror(reason)))); check the free space of the database's folder, or set http.token"
            )
        }
        return (token, true)
    }
}
