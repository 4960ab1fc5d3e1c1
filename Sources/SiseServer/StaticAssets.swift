import CompressNIO
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SiseCore

/// The page's files, read once at start-up: each with its type, a strong ETag and — when it
/// shrinks — a gzip copy made then, never per request. `index.html` names the page's stylesheets
/// and script under `/v/{version}/…` (the version a hash of every file; the script's modules
/// follow by relative address), which are cached for a year (`immutable`); everything else
/// revalidates (`no-cache` + ETag, 304). The service worker is told the version and the files
/// to keep for offline use (`ShellWorker`). The app's paths (`/favorites`, `/coin/KRW-BTC`, …)
/// answer with the page itself, so they can be linked and reloaded.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let gzip: ByteBuffer?
        let contentType: String
        let etag: String
        /// The gzip copy is another representation: its own validator (RFC 9110 §8.8.3).
        var gzipETag: String { String(etag.dropLast()) + "-gz\"" }
    }

    let version: String
    private let files: [String: Asset]

    /// The views of the single-page app (besides `/` and `/coin/{id}`).
    static let pagePaths: Set<String> = [
        "/favorites", "/info", "/compare", "/premium", "/ranking", "/portfolio", "/alerts", "/wallets", "/notices", "/events", "/profile",
    ]

    /// - Parameter exchanges: the exchanges the page shows, written into `index.html`.
    init(directory: URL, exchanges: [Exchange] = Exchange.allCases) {
        var raw: [String: Data] = [:]
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in listed.sorted() where !name.hasPrefix(".") {
            if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) { raw[name] = data }
        }
        var digest = SHA256()
        for name in raw.keys.sorted() {
            digest.update(data: Data(name.utf8))
            digest.update(data: raw[name] ?? Data())
        }
        version = String(digest.finalize().map { String(format: "%02x", $0) }.joined().prefix(12))
        let names = raw.keys.sorted()
        if let page = raw["index.html"].map({ String(decoding: $0, as: UTF8.self) }) {
            raw["index.html"] = Data(Self.versioned(ExchangePage.render(page, exchanges: exchanges), version, names: names).utf8)
        }
        if let worker = raw["sw.js"].map({ String(decoding: $0, as: UTF8.self) }) {
            raw["sw.js"] = Data(ShellWorker.written(worker, version: version, shell: ShellWorker.shell(names, version: version)).utf8)
        }
        files = Dictionary(uniqueKeysWithValues: raw.map { ($0.key, Self.asset($0.key, $0.value)) })
    }

    /// `href="/app.css"` → `href="/v/{version}/app.css"`, likewise every stylesheet and script
    /// among `names` that the page names.
    static func versioned(_ page: String, _ version: String, names: [String]) -> String {
        var addresses: [String: String] = [:]
        for name in names where ShellWorker.isVersioned(name) {
            for attribute in ["href", "src"] {
                addresses["\(attribute)=\"/\(name)\""] = "\(attribute)=\"/v/\(version)/\(name)\""
            }
        }
        return TextTemplate.fill(page, addresses)
    }

    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "json": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json; charset=utf-8", "yaml": "application/yaml; charset=utf-8",
    ]

    private static func asset(_ name: String, _ data: Data) -> Asset {
        let ext = name.split(separator: ".").last.map(String.init) ?? ""
        let type = types[ext] ?? "application/octet-stream"
        let etag = "\"" + SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        let body = ByteBuffer(bytes: data)
        var gzip: ByteBuffer?
        if ext != "png", data.count > 512 {
            var input = body
            if let packed = try? input.compress(with: .gzip), packed.readableBytes < data.count * 9 / 10 { gzip = packed }
        }
        return Asset(body: body, gzip: gzip, contentType: type, etag: etag)
    }

    /// The answer for a GET or HEAD of `path`, or nil when it is not one of the page's files.
    func response(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.uri.path
        var name: String
        var immutable = false
        if path == "/" || Self.pagePaths.contains(path) || path.hasPrefix("/coin/") {
            name = "index.html"
        } else if path.hasPrefix("/v/") {
            let parts = path.dropFirst(3).split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let asked = parts.first, let file = parts.last else { return nil }
            name = String(file)
            // An old page after an update asks for an old version: it gets today's file, not cached for long.
            immutable = asked == version
        } else {
            name = String(path.dropFirst())
        }
        guard let asset = files[name] else { return nil }
        let zipped = asset.gzip != nil && Self.acceptsGzip(request.headers[.acceptEncoding])
        let etag = zipped ? asset.gzipETag : asset.etag
        var headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: etag, .vary: "Accept-Encoding",
            .cacheControl: immutable ? "public, max-age=31536000, immutable" : "no-cache",
        ]
        if Self.matches(request.headers[values: .ifNoneMatch], etag) {
            return Response(status: .notModified, headers: headers)
        }
        var body = asset.body
        if zipped, let gzip = asset.gzip {
            body = gzip
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: request.method == .head ? .init() : .init(byteBuffer: body))
    }

    /// `If-None-Match` by weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`, `*` anything.
    static func matches(_ fields: [String], _ etag: String) -> Bool {
        for field in fields {
            for listed in field.split(separator: ",") {
                let tag = listed.trimmingCharacters(in: .whitespaces)
                let opaque = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
                if tag == "*" || opaque == etag { return true }
            }
        }
        return false
    }

    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { part in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return pieces.first == "gzip" && !pieces.dropFirst().contains("q=0")
        }
    }
}
