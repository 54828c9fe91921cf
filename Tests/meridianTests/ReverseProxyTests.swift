import Foundation
import MeridianTesting
import Testing

/// A real nginx (Debian's) in front of a real `meridian serve` on the shipped configuration, once with a plain
/// `proxy_pass` and once as docs/operations.md configures it (`Host $host`, forwarded address and scheme, SSE
/// unbuffered). Every request nginx passes on comes from 127.0.0.1: in both, nothing is readable or writable without
/// the token, whatever `Host` says; with it everything works, the event stream included. With
/// `http.trusted_proxies: [127.0.0.1]`, wrong tokens are limited per client address as nginx forwards it.
@Suite("Reverse proxy: nginx in front of meridian serve", .serialized)
struct ReverseProxyTests {
    static let nginx = "/usr/sbin/nginx"

    /// nginx on a free loopback port proxying to `upstream`, with `location` lines inside each `location` block.
    final class Nginx {
        let process: ManagedProcess
        let port: Int

        init(directory: URL, upstream: Int, location: String) async throws {
            port = try FreePort.next()
            let prefix = directory.path
            let config = """
                daemon off;
                worker_processes 1;
                pid \(prefix)/nginx.pid;
                error_log \(prefix)/error.log;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path \(prefix)/body;
                    proxy_temp_path \(prefix)/proxy;
                    fastcgi_temp_path \(prefix)/fastcgi;
                    uwsgi_temp_path \(prefix)/uwsgi;
                    scgi_temp_path \(prefix)/scgi;
                    server {
                        listen 127.0.0.1:\(port);
                        location / {
                            proxy_pass http://127.0.0.1:\(upstream);
                \(location)
                        }
                    }
                }
                """
            let file = directory.appendingPathComponent("nginx.conf")
            try config.write(to: file, atomically: true, encoding: .utf8)
            process = try ManagedProcess(
                ReverseProxyTests.nginx, ["-p", prefix, "-c", file.path, "-e", "\(prefix)/error.log"])
            let (process, port) = (self.process, self.port)
            try await ManagedProcess.waitUntil(timeout: 20, "nginx to answer on \(port)") {
                guard process.isRunning else {
                    throw TestSupportError(
                        "nginx exited: \(process.output()) \((try? String(contentsOfFile: "\(prefix)/error.log", encoding: .utf8)) ?? "")"
                    )
                }
                return (try? await HTTPTestClient(port: port).request("GET", "/health", timeout: 2).status) == 200
            }
        }
    }

    /// The documented configuration's lines inside `location /` (docs/operations.md).
    static let documented = """
                        proxy_set_header Host $host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
                        proxy_http_version 1.1;
                        proxy_buffering off;
                        proxy_read_timeout 1h;
        """

    /// curl through nginx from `address` (a loopback address other than nginx's upstream peer); stdout is the status.
    static func curl(_ port: Int, _ path: String, from address: String, headers: [String] = [], method: String = "GET")
        throws -> Int
    {
        let result = try MeridianBinary.run(
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--interface", address,
                "-X", method
            ] + headers.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(port)\(path)"],
            executable: "/usr/bin/curl")
        return Int(result.stdout) ?? -1
    }

    @Test(
        "plain proxy_pass and Host $host: nothing without the token (Host: localhost included), everything with it, SSE too",
        .enabled(if: FileManager.default.isExecutableFile(atPath: nginx)),
        arguments: ["", documented])
    func behindNginx(location: String) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = TestData.repositoryRoot.appendingPathComponent("Config/samples").path
        let shipped = try String(
            contentsOf: TestData.repositoryRoot.appendingPathComponent("Config/meridian.yaml"), encoding: .utf8)
        let config = directory.appendingPathComponent("meridian.yaml")
        try shipped.replacingOccurrences(
            of: "port: 8080", with: "port: \(try FreePort.next())\n  trusted_proxies: [127.0.0.1]"
        )
        .replacingOccurrences(of: "file: samples/", with: "file: \(samples)/")
        .replacingOccurrences(of: "path: ../data/meridian.sqlite", with: "path: meridian.sqlite")
        .write(to: config, atomically: true, encoding: .utf8)
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MERIDIAN_") }
        let (served, upstream) = try await MeridianBinary.serve(
            config: config.path, environment: environment, timeout: 30)
        defer { served.stop() }
        let token = try String(contentsOf: directory.appendingPathComponent("meridian.sqlite.token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let nginx = try await Nginx(directory: directory, upstream: upstream, location: location)
        defer { nginx.process.stop() }

        let reads = [
            "/v1/position", "/v1/providers", "/v1/runs", "/v1/runs/active", "/v1/flyers", "/v1/records", "/v1/events",
            "/metrics"
        ]
        let writes = [
            ("POST", "/v1/runs"), ("POST", "/v1/flyers"), ("DELETE", "/v1/flyers/any"), ("POST", "/v1/runs/x/stop")
        ]
        for host in [[], ["Host: localhost"], ["Host: 127.0.0.1"]] {
            for path in reads {
                #expect(try Self.curl(nginx.port, path, from: "127.0.0.2", headers: host) == 401, "GET \(path) \(host)")
            }
            for (method, path) in writes {
                #expect(
                    try Self.curl(
                        nginx.port, path, from: "127.0.0.2", headers: host + ["Content-Type: application/json"],
                        method: method) == 401, "\(method) \(path) \(host)")
            }
            #expect(try Self.curl(nginx.port, "/runs", from: "127.0.0.2", headers: host) == 303, "a page \(host)")
        }

        let authorized = ["Authorization: Bearer \(token)"]
        for path in reads where path != "/v1/events" {
            let status = try Self.curl(nginx.port, path, from: "127.0.0.2", headers: authorized)
            // No fix yet, no run yet: 404 with the error of the route, past the token check.
            #expect(
                status == 200 || (["/v1/position", "/v1/runs/active"].contains(path) && status == 404),
                "GET \(path) with the token: \(status)")
        }
        let client = HTTPTestClient(port: nginx.port, headers: ["Authorization": "Bearer \(token)"])
        let run = try await client.request("POST", "/v1/runs", body: Data(#"{"name": "Through nginx"}"#.utf8))
        #expect(run.status == 201, "\(run.text)")
        let events = try await client.stream("/v1/events?types=fix", timeout: 15) { $0.contains("event: fix") }
        #expect(events.contains("event: fix"), "\(events)")

        guard !location.isEmpty else { return }
        // nginx forwards the client's address; wrong tokens from 127.0.0.3 do not limit 127.0.0.2.
        var status = 0
        for _ in 0..<15 where status != 429 {
            status = try Self.curl(
                nginx.port, "/v1/providers", from: "127.0.0.3",
                headers: ["Authorization: Bearer wrong-token-0123456789"])
        }
        #expect(status == 429)
        #expect(try Self.curl(nginx.port, "/v1/providers", from: "127.0.0.2", headers: authorized) == 200)
    }
}
