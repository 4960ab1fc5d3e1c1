import Foundation
import Hummingbird
import SiseFeeds

/// `/img?u=…`: CoinGecko's images through Sise (the page's CSP allows only its own origin).
/// Only CoinGecko's image hosts (and, in demo, the simulator's own origin) — never an open
/// proxy; bodies are capped, cached on disk under a size cap, and a placeholder stands in on
/// any failure.
struct ImageProxyController {
    let transport: any HTTPTransport
    let cacheDirectory: URL
    let allowedHosts: Set<String>
    /// `scheme://host:port` origins allowed besides the hosts (the demo simulator).
    let allowedOrigins: Set<String>
    static let maxBytes = 512 * 1_024
    static let cacheCap = 50 * 1_024 * 1_024

    static let placeholder = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#9aa1ad"/></svg>"##

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.get("/img", use: image)
    }

    @Sendable func image(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let raw = request.uri.queryParameters["u"].map(String.init), let url = URL(string: raw) else {
            throw APIError.badParameter("u", "an image URL")
        }
        guard isAllowed(url) else { throw APIError(status: .forbidden, code: "not_allowed", message: "only CoinGecko's image hosts") }
        let key = Self.cacheKey(url.absoluteString)
        let file = cacheDirectory.appendingPathComponent(key)
        if let cached = try? Data(contentsOf: file), let type = Self.imageType(cached) {
            return Self.response(cached, type: type)
        }
        do {
            let answer = try await transport.get(url, headers: [("Accept", "image/*")])
            guard answer.status == 200, answer.body.count <= Self.maxBytes, let type = Self.imageType(answer.body) else {
                return Self.placeholderResponse()
            }
            try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            try? answer.body.write(to: file)
            Self.trim(cacheDirectory)
            return Self.response(answer.body, type: type)
        } catch {
            return Self.placeholderResponse()
        }
    }

    func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return false }
        if scheme == "https" && allowedHosts.contains(host) { return true }
        let origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        return allowedOrigins.contains(origin)
    }

    /// The type from the bytes themselves, not from what the server claims.
    static func imageType(_ data: Data) -> String? {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    static func cacheKey(_ text: String) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return String(h, radix: 16) + ".img"
    }

    /// Keeps the cache folder under its cap, dropping the oldest files first.
    static func trim(_ directory: URL) {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        let entries = files.compactMap { url -> (URL, Int, Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
            return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }.sorted { $0.2 < $1.2 }
        var total = entries.reduce(0) { $0 + $1.1 }
        for (url, size, _) in entries where total > cacheCap {
            try? FileManager.default.removeItem(at: url)
            total -= size
        }
    }

    static func response(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func placeholderResponse() -> Response {
        Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
                 body: .init(byteBuffer: ByteBuffer(string: placeholder)))
    }
}
