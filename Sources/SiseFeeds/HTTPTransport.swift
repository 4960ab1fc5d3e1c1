import Foundation

/// What every REST client needs: GET a URL (or POST a form, as an OpenID token endpoint
/// takes it) and read the whole answer. Implementations throw `FeedError` (or
/// `CancellationError`).
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData
    /// POSTs `body` (its `Content-Type` among `headers`).
    func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData
}
