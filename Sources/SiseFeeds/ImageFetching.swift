import Foundation

/// Fetches one image for the image proxy. The live one is `LiveImageFetcher`.
public protocol ImageFetching: Sendable {
    /// The body of `url`, at most `maxBytes` (enforced while reading). Redirects are followed
    /// (at most three) only to URLs `allow` returns a canonical form for.
    func fetch(_ url: URL, maxBytes: Int, allow: @escaping @Sendable (URL) -> URL?) async throws -> Data
}

/// Why an image could not be fetched.
public enum ImageFetchError: Error, Sendable, Equatable {
    case notAllowed(String)
    /// The host resolved to a private, loopback, link-local or otherwise non-public address.
    case privateAddress(String)
    case tooLarge
    case status(Int)
    case tooManyRedirects
    case unreachable(String)
}
