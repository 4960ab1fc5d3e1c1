import Foundation

/// Which image URLs the proxy may fetch, in one canonical form: CoinGecko's image paths on its
/// image hosts over https (port 443, no query — a cache-buster must not make a new fetch), or
/// the demo simulator's `/cg-images/` path on its own origin. Nothing else, ever: not another
/// path of an allowed host, not the simulator's controls.
struct ImageURL: Sendable {
    let allowedHosts: Set<String>
    /// `http://127.0.0.1:PORT` of the demo simulator, if any.
    let demoOrigin: String?

    static let sizes: Set<String> = ["thumb", "small", "large", "standard", "xsmall", "mini"]
    static let kinds: Set<String> = ["coins", "nft_contracts", "markets"]

    /// The canonical URL for `raw`, or nil when it may not be fetched.
    func canonical(_ url: URL) -> URL? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), url.user == nil else { return nil }
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if scheme == "https", allowedHosts.contains(host), url.port == nil || url.port == 443,
            segments.count == 5, Self.kinds.contains(segments[0]), segments[1] == "images",
            !segments[2].isEmpty, segments[2].allSatisfy(\.isNumber), Self.sizes.contains(segments[3]), Self.isFileName(segments[4])
        {
            return URL(string: "https://\(host)/\(segments.joined(separator: "/"))")
        }
        if let demoOrigin, "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "") == demoOrigin,
            segments.count == 3, segments[0] == "cg-images", Self.isFileName(segments[1]), Self.isFileName(segments[2])
        {
            return URL(string: "\(demoOrigin)/\(segments.joined(separator: "/"))")
        }
        return nil
    }

    static func isFileName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 120 && text != "." && text != ".."
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}
