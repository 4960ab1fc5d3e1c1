import Foundation

/// Favorites per owner (an anonymous device now, an account later). Items are Upbit market
/// codes (`KRW-BTC`) or CoinGecko ids (`bitcoin`), in the order they were added.
public protocol FavoritesRepository: Sendable {
    func list(owner: String) async throws -> [String]
    /// Adds `item`; adding twice keeps one. Returns whether it was new.
    @discardableResult func add(owner: String, item: String) async throws -> Bool
    /// Removes `item`. Returns whether it was there.
    @discardableResult func remove(owner: String, item: String) async throws -> Bool
    /// Removes every favorite of `owner`; returns how many there were.
    @discardableResult func clear(owner: String) async throws -> Int
}

/// Which strings may be favorites.
public enum FavoriteItem {
    /// `KRW-BTC` (upper-cased) or a CoinGecko id (`bitcoin`, `usd-coin`); nil for anything else.
    public static func normalize(_ raw: String) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= 100 else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let upper = text.uppercased()
        if parts.count == 2, ["KRW", "BTC", "USDT"].contains(String(parts[0]).uppercased()),
           upper.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "-") }) {
            return upper
        }
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
        return allowed ? text : nil
    }
}
