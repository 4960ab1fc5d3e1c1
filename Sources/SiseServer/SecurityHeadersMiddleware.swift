import Foundation
import Hummingbird

/// Headers every answer carries: a strict Content-Security-Policy (no inline script, no
/// third-party anything), no MIME sniffing, no framing.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        return response
    }
}
