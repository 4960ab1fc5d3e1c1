import Hummingbird
import SiseCore

/// A client behind a trusted proxy is held to the per-address connection cap too, once its
/// address is known (`ClientAddressMiddleware`): its requests in flight and its open `/ws`
/// sockets (each its own connection through the proxy) count against it. The TCP peer — the
/// proxy, on loopback — is exempt, and without this every client behind it was past the cap.
struct ForwardedClientCap: RouterMiddleware {
    typealias Context = SiseRequestContext
    let counter: ConnectionCounter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let client = context.clientAddress, client != context.peerAddress else { return try await next(request, context) }
        guard counter.hold(client) else {
            throw APIError(
                status: .serviceUnavailable,
                code: "too_many_connections",
                RefusalText.tooManyConnections,
                retryAfter: 5
            )
        }
        // An upgraded socket keeps its place until its connection (the proxy's, made for it) closes.
        if request.uri.path == "/ws" && request.headers[.upgrade] != nil {
            let counter = counter
            context.channel.closeFuture.whenComplete { _ in counter.release(client) }
            return try await next(request, context)
        }
        defer { counter.release(client) }
        return try await next(request, context)
    }
}
