import Foundation
import MeridianTesting
import Testing

/// `meridian serve` without a configured token: a token made on the first start beside the database (owner only),
/// a sign-in link, the CLI reading the token from there; `http.open_loopback`; and `config check` reading the TLS files.
@Suite("Serve access: the token file, open_loopback, TLS files in config check")
struct ServeAccessTests {
    /// A configuration with a run tracker on a free port, its database in `directory`/db.
    static func configuration(in directory: URL, http: String = "") throws -> String {
        let file = directory.appendingPathComponent("meridian.yaml")
        try
            "http:\n  port: \(try FreePort.next())\n\(http)store:\n  path: db/meridian.sqlite\nconsumers:\n  - type: run-tracker\n"
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The environment without the caller's `MERIDIAN_*` settings.
    static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MERIDIAN_") }
    }

    static func serve(_ config: String, waitingFor text: String) async throws -> (process: ManagedProcess, port: Int) {
        let (process, port) = try await MeridianBinary.serve(config: config, environment: environment, timeout: 30)
        try await ManagedProcess.waitUntil(timeout: 10, "'\(text)' in the log: \(process.output())") {
            process.output().contains(text)
        }
        return (process, port)
    }

    @Test(
        "without a token, serve makes one (mode 600, beside the database), prints a sign-in link and requires it; the CLI reads it; a restart keeps it"
    )
    func tokenMadeOnFirstStart() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.configuration(in: directory)
        let (process, port) = try await Self.serve(config, waitingFor: "sign in:")
        defer { process.stop() }
        let file = directory.appendingPathComponent("db/meridian.sqlite.token").path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        #expect(process.output().contains("sign in: http://127.0.0.1:\(port)/?token=\(token)"), "\(process.output())")

        for headers in [[:], ["Host": "localhost"], ["Authorization": "Bearer wrong-token-0123456789"]] {
            let client = HTTPTestClient(port: port, headers: headers)
            #expect(try await client.request("GET", "/v1/runs/active").status == 401, "\(headers)")
            #expect(try await client.request("POST", "/v1/runs", body: Data("{}".utf8)).status == 401, "\(headers)")
            #expect(try await client.request("GET", "/").status == 303, "\(headers)")
        }
        let authorized = HTTPTestClient(port: port, headers: ["Authorization": "Bearer \(token)"])
        #expect(try await authorized.request("GET", "/v1/providers").status == 200)
        let link = try await HTTPTestClient(port: port).request("GET", "/?token=\(token)")
        #expect(link.status == 303 && link.headers["set-cookie"]?.hasPrefix("meridian_session=") == true)

        // The CLI on the same machine finds the token beside the configuration's database.
        let started = try MeridianBinary.run(["runs", "start", "--config", config])
        #expect(started.status == 0, "\(started.stderr)")
        process.stop()

        let (again, _) = try await Self.serve(config, waitingFor: "sign in:")
        defer { again.stop() }
        #expect(again.output().contains("?token=\(token)"))
        #expect(!again.output().contains("made an API token"))
    }

    @Test("a token file that group or others may read is refused at start")
    func tokenFileOpenToOthers() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.configuration(in: directory)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("db"), withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("db/meridian.sqlite.token").path
        try "0123456789abcdef0123456789abcdef\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let result = try MeridianBinary.run(["serve", "--config", config])
        #expect(result.status != 0)
        #expect(result.stderr.contains("chmod 600 \(file)"), "\(result.stderr)")
    }

    @Test("http.open_loopback answers loopback requests without a token and warns at every start")
    func openLoopback() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.configuration(in: directory, http: "  open_loopback: true\n")
        let (process, port) = try await Self.serve(config, waitingFor: "listening on http")
        defer { process.stop() }
        #expect(
            process.output().contains("http.open_loopback: requests from this machine need no token"),
            "\(process.output())")
        #expect(try await HTTPTestClient(port: port).request("GET", "/v1/providers").status == 200)
        #expect(
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("db/meridian.sqlite.token").path))
    }

    /// A self-signed certificate for 127.0.0.1 and its key (mode 600) as `name`-cert.pem and `name`-key.pem.
    static func makeCertificate(_ name: String, in directory: URL) throws {
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let made = try MeridianBinary.run(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", directory.appendingPathComponent("\(name)-cert.pem").path,
                "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"
            ],
            executable: "/usr/bin/openssl")
        guard made.status == 0 else { throw TestSupportError("openssl req failed: \(made.stderr)") }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
    }

    @Test("over HTTPS the sign-in link is https:// and its session cookie is Secure")
    func secureCookieOverTLS() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeCertificate("a", in: directory)
        let config = try Self.configuration(
            in: directory, http: "  tls:\n    certificate: a-cert.pem\n    key: a-key.pem\n")
        let (process, port) = try await Self.serve(config, waitingFor: "sign in:")
        defer { process.stop() }
        let token = try String(
            contentsOfFile: directory.appendingPathComponent("db/meridian.sqlite.token").path, encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(process.output().contains("sign in: https://127.0.0.1:\(port)/?token=\(token)"), "\(process.output())")
        let answer = try MeridianBinary.run(
            [
                "-sS", "-o", "/dev/null", "-D", "-", "--max-time", "10", "--cacert",
                directory.appendingPathComponent("a-cert.pem").path, "https://127.0.0.1:\(port)/?token=\(token)"
            ],
            executable: "/usr/bin/curl")
        let cookie = answer.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(cookie?.hasSuffix("; Secure") == true, "\(answer.stdout) \(answer.stderr)")
    }

    @Test(
        "config check reads the TLS files: a missing certificate, a key open to others and a key of another certificate are errors naming the file"
    )
    func configCheckReadsTLSFiles() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["a", "b"] { try Self.makeCertificate(name, in: directory) }
        func check(certificate: String, key: String) throws -> MeridianBinary.Result {
            let config = try Self.configuration(
                in: directory, http: "  tls:\n    certificate: \(certificate)\n    key: \(key)\n")
            return try MeridianBinary.run(["config", "check", config])
        }
        #expect(try check(certificate: "a-cert.pem", key: "a-key.pem").status == 0)
        let missing = try check(certificate: "missing.pem", key: "a-key.pem")
        #expect(
            missing.status == 2 && missing.stderr.contains("http.tls.certificate")
                && missing.stderr.contains("missing.pem"), "\(missing.stderr)")
        #expect(missing.stderr.contains("meridian.yaml: http.tls.certificate"), "the file is named: \(missing.stderr)")
        let mismatched = try check(certificate: "a-cert.pem", key: "b-key.pem")
        #expect(
            mismatched.status == 2 && mismatched.stderr.contains("http.tls.key")
                && mismatched.stderr.contains("does not go with"),
            "\(mismatched.stderr)")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: directory.appendingPathComponent("b-key.pem").path)
        let open = try check(certificate: "b-cert.pem", key: "b-key.pem")
        #expect(open.status == 2 && open.stderr.contains("chmod 600"), "\(open.stderr)")
    }
}
