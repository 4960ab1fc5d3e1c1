import Foundation
import Hummingbird

/// Headers every answer carries, errors included (it is the outermost middleware): a strict
/// Content-Security-Policy (no inline script, no third-party anything), no MIME sniffing, no
/// framing, no referrer to other sites; HSTS when the public origin is https; and `no-store`
/// on every API answer whose route did not say how it may be cached (most are one person's:
/// favorites, portfolio, alerts, the account — no shared cache may keep them).
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let origin: PublicOrigin
    static let hsts = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Nothing should get past the error middleware; if something does, it still gets
            // the JSON error shape and these headers.
            response = APIErrorMiddleware<Context>.response(.internalFailure, LanguagePreference.of(request))
        }
        let base = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        // A route's own policy (`sandbox` on uploaded pictures) is kept and tightened by the base.
        response.headers[.contentSecurityPolicy] = response.headers[.contentSecurityPolicy].map { $0 + "; " + base } ?? base
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        if origin.isSecure { response.headers[.strictTransportSecurity] = Self.hsts }
        if response.headers[.cacheControl] == nil, request.uri.path.hasPrefix("/api/") || request.uri.path.hasPrefix("/auth/") {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
