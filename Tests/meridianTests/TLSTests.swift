import Foundation
import MeridianTesting
import Testing

/// `meridian serve` with `http.tls`: HTTPS over TLS 1.2 and 1.3 and nothing older, a key file open to others refused,
/// and SIGHUP serving renewed certificate files without stopping the service or its open connections.
@Suite("TLS")
struct TLSTests {
    private static let token = "0123456789abcdef0123456789abcdef"

    /// A self-signed certificate for 127.0.0.1 with `serial` and its key (mode 600), as `cert.pem` and `key.pem` in
    /// `directory` (or `prefix`cert.pem…).
    @discardableResult
    private static func makeCertificate(in directory: URL, serial: String, prefix: String = "") throws -> (
        certificate: URL, key: URL
    ) {
        let certificate = directory.appendingPathComponent("\(prefix)cert.pem"),
            key = directory.appendingPathComponent("\(prefix)key.pem")
        let result = try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-set_serial", serial
        ])
        guard result.status == 0 else { throw TestSupportError("openssl req failed: \(result.stderr)") }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        return (certificate, key)
    }

    private static func openssl(_ arguments: [String]) throws -> MeridianBinary.Result {
        try MeridianBinary.run(arguments, executable: "/usr/bin/openssl")
    }

    /// `curl` on `https://127.0.0.1:port/path` trusting `directory`/cert.pem; stdout is the HTTP status.
    private static func curl(_ port: Int, _ directory: URL, _ options: [String], path: String = "/health") throws
        -> MeridianBinary.Result
    {
        try MeridianBinary.run(
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10",
                "--cacert", directory.appendingPathComponent("cert.pem").path
            ]
                + options + ["https://127.0.0.1:\(port)\(path)"], executable: "/usr/bin/curl")
    }

    /// The serial number of the certificate served on `port`, as `openssl x509 -serial` prints it (`serial=1001`).
    private static func servedSerial(_ port: Int) throws -> String {
        let result = try MeridianBinary.run(
            ["-c", "openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -noout -serial"],
            executable: "/bin/sh")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `meridian serve` with a token and `http.tls` on `cert.pem` and `key.pem` beside the configuration (relative
    /// paths, resolved from the configuration's folder), the certificate's serial 1001. The port is written in the
    /// configuration, where `meridian runs status --config` finds the service.
    private static func serveTLS() async throws -> ServedInstance {
        let port = try FreePort.next()
        return try await ServedInstance { directory in
            try makeCertificate(in: directory, serial: "0x1001")
            return "http:\n  port: \(port)\n  token: \(token)\n  tls:\n    certificate: cert.pem\n    key: key.pem\n"
        }
    }

    @Test("serve answers HTTPS over TLS 1.2 and 1.3, refuses TLS 1.1 and plain HTTP")
    func versions() async throws {
        let served = try await Self.serveTLS()
        defer { served.stop() }
        let port = served.client.port
        #expect(
            served.process.output().contains("listening on https://127.0.0.1:\(port)"), "\(served.process.output())")
        #expect(served.process.output().contains("certificate serial 10:01"), "\(served.process.output())")

        let tls12 = try Self.curl(port, served.directory, ["--tlsv1.2", "--tls-max", "1.2"])
        #expect(tls12.stdout == "200", "\(tls12.stderr)")
        let tls13 = try Self.curl(port, served.directory, ["--tlsv1.3"])
        #expect(tls13.stdout == "200", "\(tls13.stderr)")
        let unauthorised = try Self.curl(port, served.directory, [], path: "/v1/position")
        #expect(unauthorised.stdout == "401")

        // SECLEVEL=0 lets this client offer TLS 1.1 (Debian's OpenSSL refuses it by default), so only the server
        // can refuse it; the control below shows the same client completing a TLS 1.1 handshake where one is offered.
        let tls11 = try Self.curl(
            port, served.directory, ["--tlsv1.1", "--tls-max", "1.1", "--ciphers", "DEFAULT@SECLEVEL=0"])
        #expect(tls11.status != 0 && tls11.stdout != "200", "TLS 1.1 was answered: \(tls11.stdout)")
        let legacy = try Self.openssl([
            "s_client", "-connect", "127.0.0.1:\(port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"
        ])
        #expect(legacy.status != 0, "\(legacy.stdout)")

        let modern = try Self.openssl([
            "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile",
            served.directory.appendingPathComponent("cert.pem").path, "-verify_return_error"
        ])
        #expect(modern.status == 0, "\(modern.stderr)")
        #expect(
            modern.stdout.contains("TLSv1.3") && modern.stdout.contains("Verify return code: 0 (ok)"),
            "\(modern.stdout)")

        let plain = try MeridianBinary.run(
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10",
                "http://127.0.0.1:\(port)/health"
            ], executable: "/usr/bin/curl")
        #expect(plain.stdout != "200", "plain HTTP was answered on the TLS port")

        // The CLI finds the service over HTTPS from the same configuration (this certificate is not one it trusts).
        let cli = try MeridianBinary.run([
            "runs", "status", "--config", served.directory.appendingPathComponent("meridian.yaml").path
        ])
        #expect(cli.stderr.contains("https://127.0.0.1:\(port)") && cli.stderr.contains("certificate"), "\(cli.stderr)")
        #expect(served.process.isRunning)
    }

    @Test(
        "the TLS 1.1 control: this machine's openssl and curl complete a TLS 1.1 handshake with a server that offers it"
    )
    func legacyControl() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.makeCertificate(in: directory, serial: "0x1")
        let port = try FreePort.next()
        let server = try ManagedProcess(
            "/usr/bin/openssl",
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", files.certificate.path,
                "-key", files.key.path, "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0", "-www"
            ])
        defer { server.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "openssl s_server to listen") {
            guard server.isRunning else { throw TestSupportError("openssl s_server exited: \(server.output())") }
            return server.output().contains("ACCEPT")
        }
        let tls11 = try Self.curl(
            port, directory, ["--tlsv1.1", "--tls-max", "1.1", "--ciphers", "DEFAULT@SECLEVEL=0"], path: "/")
        #expect(tls11.stdout == "200", "\(tls11.stderr)")
    }

    @Test(
        "a key file readable by group or others is refused, naming the file and the chmod to run; so is a key of another certificate"
    )
    func openKeyRefused() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.makeCertificate(in: directory, serial: "0x2")
        let config = directory.appendingPathComponent("meridian.yaml")
        try "http:\n  port: 0\n  tls:\n    certificate: \(files.certificate.path)\n    key: \(files.key.path)\n"
            .write(to: config, atomically: true, encoding: .utf8)
        for mode in [0o640, 0o604] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: files.key.path)
            let result = try MeridianBinary.run(
                ["serve", "--config", config.path],
                environment: ["MERIDIAN_DB": directory.appendingPathComponent("m.sqlite").path])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(
                result.stderr.contains("http.tls.key") && result.stderr.contains("chmod 600 \(files.key.path)")
                    && result.stderr.contains("mode \(String(mode, radix: 8))"), "\(result.stderr)")
        }
        // A key of another certificate is refused too.
        let other = try Self.makeCertificate(in: directory, serial: "0x3", prefix: "other-")
        guard rename(other.key.path, files.key.path) == 0 else {
            throw TestSupportError("cannot move the other key into place")
        }
        let mismatch = try MeridianBinary.run(
            ["serve", "--config", config.path],
            environment: ["MERIDIAN_DB": directory.appendingPathComponent("m.sqlite").path])
        #expect(
            mismatch.status == 2 && mismatch.stderr.contains("does not go with the certificate"), "\(mismatch.stderr)")
    }

    @Test("SIGHUP serves renewed certificate files to new connections; open connections and the service stay up")
    func hangupReloadsCertificate() async throws {
        let served = try await Self.serveTLS()
        defer { served.stop() }
        let port = served.client.port
        #expect(try Self.servedSerial(port) == "serial=1001")

        // An open event stream, which must outlive the reload.
        let stream = try ManagedProcess(
            "/usr/bin/curl",
            [
                "-sSN", "--cacert", served.directory.appendingPathComponent("cert.pem").path,
                "-H", "Authorization: Bearer \(Self.token)", "https://127.0.0.1:\(port)/v1/events"
            ])
        defer { stream.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "the event stream to open") {
            guard stream.isRunning else { throw TestSupportError("curl exited: \(stream.output())") }
            return stream.output().contains("meridian event stream")
        }

        // certbot's way: new files beside the old ones, moved over them.
        let renewal = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: renewal) }
        try Self.makeCertificate(in: renewal, serial: "0x2002")
        for name in ["cert.pem", "key.pem"] {
            guard
                rename(renewal.appendingPathComponent(name).path, served.directory.appendingPathComponent(name).path)
                    == 0
            else {
                throw TestSupportError(
                    "cannot move the renewed \(name) into place: \(String(cString: strerror(errno)))")
            }
        }
        served.process.send(SIGHUP)
        try await ManagedProcess.waitUntil(timeout: 20, "the certificate reload to be logged") {
            guard served.process.isRunning else {
                throw TestSupportError("meridian serve exited on SIGHUP: \(served.process.output())")
            }
            return served.process.output().contains("SIGHUP: reloaded TLS")
        }
        #expect(served.process.output().contains("certificate serial 20:02"), "\(served.process.output())")
        #expect(try Self.servedSerial(port) == "serial=2002")
        #expect(try Self.curl(port, served.directory, []).stdout == "200")
        #expect(stream.isRunning, "the open event stream was dropped: \(stream.output())")

        // Files that no longer load (a key open to others) leave the renewed certificate in service.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644], ofItemAtPath: served.directory.appendingPathComponent("key.pem").path)
        served.process.send(SIGHUP)
        try await ManagedProcess.waitUntil(timeout: 20, "the failed reload to be logged") {
            served.process.output().contains("TLS files were not reloaded")
        }
        #expect(
            served.process.output().contains("still serving certificate serial 20:02"), "\(served.process.output())")
        #expect(try Self.servedSerial(port) == "serial=2002")
        #expect(served.process.isRunning && stream.isRunning)
    }
}
