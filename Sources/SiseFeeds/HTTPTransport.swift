import Foundation

/// The one thing every REST client needs: GET a URL and read the whole answer.
/// Implementations throw `FeedError` (or `CancellationError`).
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData
}
