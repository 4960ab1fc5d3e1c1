import HTTPTypes
import Hummingbird

/// Sets every request's client address by the one rule (`TrustedProxies`), before any middleware
/// or route that limits per client reads it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let proxies: TrustedProxies
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !proxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.client(peer: context.peerAddress, forwardedFor: request.headers[values: Self.forwardedFor])
        return try await next(request, context)
    }
}
