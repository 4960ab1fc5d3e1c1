import Foundation

/// What can go wrong storing user data, worded for people in one place.
public enum StoreError: Error, Sendable, Equatable {
    /// The database file could not be opened or migrated.
    case unavailable(path: String, reason: String)
    /// A favorite must be an Upbit market (`KRW-BTC`) or a CoinGecko id (`bitcoin`).
    case invalidItem(String)
    /// A write or read failed.
    case failed(String)
    /// The owner already has the most favorites allowed.
    case tooMany(limit: Int)

    public var message: String {
        switch self {
        case .unavailable(let path, let reason): "the database at \(path) cannot be used: \(reason)"
        case .invalidItem(let item): "'\(item.prefix(40))' is not a market code or a coin id"
        case .tooMany(let limit): "at most \(limit) favorites; remove one first"
        case .failed(let reason): "the database failed: \(reason)"
        }
    }
}
