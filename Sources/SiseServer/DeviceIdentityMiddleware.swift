import Foundation
import Hummingbird

/// Gives every browser an anonymous device identity (an HttpOnly, SameSite=Lax, long-lived
/// cookie) that owns its favorites, and a CSRF token cookie the page echoes in a header.
struct DeviceIdentityMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    static let deviceCookie = "sise_device"
    static let csrfCookie = "sise_csrf"
    static let twoYears = 2 * 365 * 24 * 3_600

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let existing = request.cookies[Self.deviceCookie]?.value
        let device = existing.flatMap { Self.isToken($0) ? $0 : nil }
        context.deviceID = device ?? Self.newToken()
        let csrf = request.cookies[Self.csrfCookie]?.value
        var response = try await next(request, context)
        if device == nil {
            response.setCookie(Cookie(name: Self.deviceCookie, value: context.deviceID, maxAge: Self.twoYears,
                                      path: "/", httpOnly: true, sameSite: .lax))
        }
        if csrf.map(Self.isToken) != true {
            // Readable by the page's script (not HttpOnly) so it can send it back as a header.
            response.setCookie(Cookie(name: Self.csrfCookie, value: Self.newToken(), maxAge: Self.twoYears,
                                      path: "/", httpOnly: false, sameSite: .strict))
        }
        return response
    }

    /// 128 random bits as 32 lower-case hex digits.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func isToken(_ value: String) -> Bool {
        value.count == 32 && value.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// Refuses state-changing requests that do not prove they come from Sise's own page: the
/// `X-CSRF-Token` header must equal the `sise_csrf` cookie (double submit), and an `Origin`,
/// when sent, must be this host.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if ![.get, .head, .options].contains(request.method) {
            guard OriginCheck.isSameOrigin(request) else { throw APIError.crossOrigin }
            let header = request.headers[.init("X-CSRF-Token")!]
            let cookie = request.cookies[DeviceIdentityMiddleware.csrfCookie]?.value
            guard let header, let cookie, DeviceIdentityMiddleware.isToken(cookie), header == cookie else {
                throw APIError.csrf
            }
        }
        return try await next(request, context)
    }
}

/// Whether a request's `Origin` (if any) names the host it was sent to. Hosts are compared
/// without ports: some WebSocket clients send `Origin: ws://host` with no port at all.
enum OriginCheck {
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let originHost = URL(string: origin)?.host?.lowercased(),
              let authority = request.head.authority,
              let requestHost = URL(string: "http://" + authority)?.host?.lowercased() else { return false }
        return originHost == requestHost
    }
}
