import HTTPTypes
import Hummingbird

/// Sets every request's client address by the one rule (`TrustedProxies`), before any middleware
/// or route that limits per client reads it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext
    let proxies: TrustedProxies
    /// nil only if the literal were not a valid field name (it is); then no header is read.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !proxies.isEmpty, let name = Self.forwardedFor else { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.client(peer: context.peerAddress, forwardedFor: request.headers[values: name])
        return try await next(request, context)
    }
}
