import Foundation
import Hummingbird
import Logging
import MeridianHTTP

/// Leaflet as Debian's `libjs-leaflet` installs it (`/usr/share/javascript/leaflet/`), served under
/// `/assets/leaflet/`: the script, the stylesheet and its images, read once at start. Only those files are
/// served (no path from a request ever reaches the file system). Without the package, pages draw no live
/// map and show the server's pictures.
struct LeafletFiles: Sendable {
    struct File: Sendable {
        var path: String
        var contentType: String
        var data: Data
        /// The same file gzip-compressed, when the package ships one.
        var gzip: Data?
    }

    let files: [File]

    var isAvailable: Bool { files.contains { $0.path == "leaflet.js" } && files.contains { $0.path == "leaflet.css" } }

    /// Reads the files in `directory`; logs what is missing.
    init(directory: String, logger: Logger) {
        let manager = FileManager.default
        func read(_ name: String) -> Data? { manager.contents(atPath: "\(directory)/\(name)") }
        var files: [File] = []
        // The minified build when present, under the name the pages use.
        if let script = read("leaflet.min.js") ?? read("leaflet.js") {
            let gzip = read("leaflet.min.js") != nil ? read("leaflet.min.js.gz") : read("leaflet.js.gz")
            files.append(
                File(path: "leaflet.js", contentType: "text/javascript; charset=utf-8", data: script, gzip: gzip))
        }
        if let css = read("leaflet.css") {
            files.append(
                File(
                    path: "leaflet.css", contentType: "text/css; charset=utf-8", data: css, gzip: read("leaflet.css.gz")
                ))
        }
        let images = (try? manager.contentsOfDirectory(atPath: "\(directory)/images")) ?? []
        for name in images.sorted() where name.hasSuffix(".png") {
            if let data = read("images/\(name)") {
                files.append(File(path: "images/\(name)", contentType: "image/png", data: data, gzip: nil))
            }
        }
        self.files = files
        if !isAvailable {
            logger.notice(
                "Leaflet is not installed in \(directory) (Debian package libjs-leaflet): pages show route pictures instead of maps"
            )
        }
    }

    func add(to router: Router<MeridianRequestContext>) {
        for file in files {
            router.get("assets/leaflet/\(file.path)") { request, _ in
                let acceptsGzip = request.headers[.acceptEncoding]?.lowercased().contains("gzip") ?? false
                var headers: HTTPFields = [
                    .contentType: file.contentType, .cacheControl: "public, max-age=86400",
                    .xContentTypeOptions: "nosniff", .vary: "Accept-Encoding"
                ]
                var body = file.data
                if acceptsGzip, let gzip = file.gzip {
                    headers[.contentEncoding] = "gzip"
                    body = gzip
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
        }
    }
}
