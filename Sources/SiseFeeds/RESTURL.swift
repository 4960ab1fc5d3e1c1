import Foundation

/// A REST URL: the configured base (which may carry a path prefix, like `/bithumb` on the
/// simulator), the endpoint's path, the query sorted.
enum RESTURL {
    static func make(_ base: URL, _ path: String, _ query: [String: String]) throws -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            throw FeedError.unreachable(host: base.absoluteString, reason: "bad base URL")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.queryItems = query.isEmpty ? nil : query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else {
            throw FeedError.unreachable(host: base.absoluteString, reason: "bad URL for \(path)")
        }
        return url
    }

    /// `text` percent-encoded as a query's value is (only the unreserved characters left as
    /// they are): a signed parameter string must be the bytes sent, so it is built once, here.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
