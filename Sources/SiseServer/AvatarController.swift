import Foundation
import Hummingbird
import NIOPosix
import SiseCore
import SiseStore

/// Profile pictures: `PUT/DELETE /api/me/avatar` (the body is the image itself) and
/// `GET /api/me/avatar`, `GET /api/users/{id}/avatar`. PNG, JPEG or WebP recognised by their
/// bytes, at most 2 MB and 4096×4096 (from the header); kept in the database under a random name
/// (any replica serves it; pictures from before that are files in `DATA/avatars`, still served);
/// served with their real type, `nosniff`, `Content-Security-Policy: sandbox`; replacing or
/// deleting removes the old one; a default picture otherwise.
struct AvatarController {
    let accounts: AccountStore
    /// `DATA/avatars`: pictures uploaded before they were kept in the database.
    let directory: URL
    static let maxBytes = 2 * 1_024 * 1_024
    static let maxSide = 4_096

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.put("/api/me/avatar", use: upload)
        router.delete("/api/me/avatar", use: remove)
        router.get("/api/me/avatar") { request, ctx in
            guard let account = ctx.account else { throw MeController.unauthorized(LanguagePreference.of(request)) }
            return try await serve(account.id)
        }
        router.get("/api/users/:id/avatar") { _, ctx in
            let id = ctx.parameters.get("id") ?? ""
            guard id.count <= 64, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw APIError.notFound(.missingUser) }
            return try await serve(id.lowercased())
        }
    }

    @Sendable func upload(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        guard let account = ctx.account else { throw MeController.unauthorized(language) }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: Self.maxBytes) else {
            throw APIError(status: .contentTooLarge, code: "too_large", UIText.avatarTooLarge)
        }
        let bytes = Array(buffer.readableBytesView)
        guard let image = SniffedImage.sniff(bytes) else {
            throw APIError(status: .unsupportedMediaType, code: "unsupported_image", UIText.avatarUnsupported)
        }
        guard image.width <= Self.maxSide, image.height <= Self.maxSide else {
            throw APIError(status: .contentTooLarge, code: "too_large", UIText.avatarTooLarge)
        }
        let name = SessionMiddleware.newToken() + ".img"
        if let old = try await accounts.setAvatar((name, image.kind.rawValue, Data(bytes)), of: account.id) { await discard(old) }
        return JSONText.response(["avatar": "/api/users/\(account.id)/avatar"], status: .ok)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let account = ctx.account else { throw MeController.unauthorized(LanguagePreference.of(request)) }
        if let old = try await accounts.setAvatar(nil, of: account.id) { await discard(old) }
        return JSONText.response(["avatar": "/api/users/\(account.id)/avatar"])
    }

    private func serve(_ id: String) async throws -> Response {
        // `nosniff` comes with every answer (SecurityHeadersMiddleware); `sandbox` is this route's.
        var headers: HTTPFields = [.contentSecurityPolicy: "sandbox", .cacheControl: "private, max-age=60"]
        if let image = try await accounts.avatarImage(of: id) {
            headers[.contentType] = image.type
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
        if let avatar = try await accounts.avatar(of: id), Self.isFileName(avatar.file) {
            let file = directory.appendingPathComponent(avatar.file)
            if let data = try? await NIOThreadPool.singleton.runIfActive({ try Data(contentsOf: file) }) {
                headers[.contentType] = avatar.type
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
        headers[.contentType] = "image/svg+xml"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.defaultAvatar)))
    }

    private func discard(_ file: String) async {
        guard Self.isFileName(file) else { return }
        let url = directory.appendingPathComponent(file)
        _ = try? await NIOThreadPool.singleton.runIfActive { try FileManager.default.removeItem(at: url) }
    }

    /// Only names this controller made: 64 hex digits and `.img` (never a path).
    static func isFileName(_ name: String) -> Bool {
        name.count == 68 && name.hasSuffix(".img") && name.dropLast(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static let defaultAvatar = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#8a94a6"/>\
        <circle cx="32" cy="25" r="11" fill="#fff"/><path d="M12 54c3-11 11-16 20-16s17 5 20 16" fill="#fff"/></svg>
        """
}
