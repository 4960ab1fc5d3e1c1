import Foundation
import Hummingbird
import SiseCore
import SiseFeeds

/// `/img?u=…`: CoinGecko's images through Sise (the page's CSP allows only its own origin).
/// Only CoinGecko's image paths on its image hosts (and, in demo, the simulator's image path)
/// — never an open proxy; see `ImageURL` for what may be fetched, `LiveImageFetcher` for how,
/// `ImageCache` for the disk cache. A placeholder stands in on any failure.
struct ImageProxyController {
    let proxy: ImageProxy

    static let placeholder = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#9aa1ad"/></svg>"##

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/img", use: image)
    }

    @Sendable func image(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let raw = request.uri.queryParameters["u"].map(String.init), raw.utf8.count <= 2_048, let url = URL(string: raw) else {
            throw APIError.badParameter(.image, .imageURL)
        }
        guard let canonical = proxy.urls.canonical(url) else {
            throw APIError(status: .forbidden, code: "not_allowed", RefusalText.imageNotAllowed)
        }
        guard let data = await proxy.image(canonical), let type = Self.imageType(data) else { return Self.placeholderResponse() }
        return Self.response(data, type: type)
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

    static func response(_ data: Data, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=86400"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    static func placeholderResponse() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: placeholder))
        )
    }
}
