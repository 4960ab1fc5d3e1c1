import Foundation

/// What can go wrong storing user data, worded for people in one place.
public enum StoreError: Error, Sendable, Equatable {
    /// The database file could not be opened or migrated.
    case unavailable(path: String, reason: String)
    /// A favorite must be an Upbit market (`KRW-BTC`) or a CoinGecko id (`bitcoin`).
    case invalidItem(String)
    /// A write or read failed.
    case failed(String)

    public var message: String {
        switch self {
        case .unavailable(let path, let reason): "the database at \(path) cannot be used: \(reason)"
        case .invalidItem(let item): "'\(item)' is not a market code or a coin id"
        case .failed(let reason): "the database failed: \(reason)"
        }
    }
}
