import Foundation
import Hummingbird

/// Gives every browser an anonymous device identity (an HttpOnly, SameSite=Lax, long-lived
/// cookie) that owns its favorites, and a CSRF token cookie the page echoes in a header. When
/// the public URL is https the cookies are `Secure` and carry the `__Host-` prefix (host-only,
/// path `/`, never set over plain http).
struct DeviceIdentityMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    static let twoYears = 2 * 365 * 24 * 3_600
    let secure: Bool
    /// Notes when each device was last seen (idle devices are removed after months).
    let devices: DeviceCleanup?

    init(secure: Bool = false, devices: DeviceCleanup? = nil) {
        self.secure = secure
        self.devices = devices
    }

    static func deviceCookie(secure: Bool) -> String { secure ? "__Host-sise_device" : "sise_device" }
    static func csrfCookie(secure: Bool) -> String { secure ? "__Host-sise_csrf" : "sise_csrf" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let existing = request.cookies[Self.deviceCookie(secure: secure)]?.value
        let device = existing.flatMap { Self.isToken($0) ? $0 : nil }
        context.deviceID = device ?? Self.newToken()
        let csrf = request.cookies[Self.csrfCookie(secure: secure)]?.value
        if let device { await devices?.seen(device) }
        var response = try await next(request, context)
        // An answer any cache may keep (the versioned files, a year) carries no one's cookie: a
        // shared cache would not keep it otherwise, or would hand one person's cookie to others.
        if response.headers[.cacheControl]?.contains("public") == true { return response }
        if device == nil {
            response.setCookie(
                Cookie(
                    name: Self.deviceCookie(secure: secure),
                    value: context.deviceID,
                    maxAge: Self.twoYears,
                    path: "/",
                    secure: secure,
                    httpOnly: true,
                    sameSite: .lax
                )
            )
        }
        if csrf.map(Self.isToken) != true {
            // Readable by the page's script (not HttpOnly) so it can send it back as a header.
            response.setCookie(
                Cookie(
                    name: Self.csrfCookie(secure: secure),
                    value: Self.newToken(),
                    maxAge: Self.twoYears,
                    path: "/",
                    secure: secure,
                    httpOnly: false,
                    sameSite: .strict
                )
            )
        }
        return response
    }

    /// 128 random bits as 32 lower-case hex digits.
    static func newToken() -> String { RandomHex.make(words: 2) }

    static func isToken(_ value: String) -> Bool {
        value.count == 32 && value.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// Refuses state-changing requests that do not prove they come from Sise's own page: the
/// `X-CSRF-Token` header must equal the `sise_csrf` cookie (double submit), and an `Origin`,
/// when sent, must be exactly the server's public origin (scheme, host and port).
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let origin: PublicOrigin
    var secure: Bool { origin.isSecure }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // `/mcp` reads no cookie: nothing a page's cross-site request carries can act there (it
        // checks the Origin itself, as the protocol asks).
        if ![.get, .head, .options].contains(request.method), request.uri.path != MCPController.path {
            guard origin.acceptsOrigin(request.headers[.origin]) else { throw APIError.crossOrigin }
            let header = request.headers[.init("X-CSRF-Token")!]
            let cookie = request.cookies[DeviceIdentityMiddleware.csrfCookie(secure: secure)]?.value
            guard let header, let cookie, DeviceIdentityMiddleware.isToken(cookie), header == cookie else {
                throw APIError.csrf
            }
        }
        return try await next(request, context)
    }
}
