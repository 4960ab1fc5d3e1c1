import Foundation

/// The global spot venues the premium is measured against: an identity and the facts pure rules
/// need. How each is reached (URL, client, the simulator's mount) is its `GlobalVenueSpec` in
/// SiseFeeds's registry; faces iterate `allCases` and name none.
public enum GlobalVenue: String, CaseIterable, Sendable, Codable, Hashable {
    case binance, okx, bybit

    /// `binance`, `OKX`, ` bybit ` …; nil for anything else.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// For error messages: "binance, okx or bybit".
    public static let names: String = {
        let ids = allCases.map(\.rawValue)
        guard let last = ids.last, ids.count > 1 else { return ids.joined() }
        return ids.dropLast().joined(separator: ", ") + " or " + last
    }()

    /// The venue's name as people write it.
    public var displayName: String {
        switch self {
        case .binance: "Binance"
        case .okx: "OKX"
        case .bybit: "Bybit"
        }
    }
}

/// A coin's USDT price on a global venue and when the venue stamped it (or when it was received,
/// where the venue stamps nothing: Binance's REST price).
public struct VenueQuote: Sendable, Hashable {
    public var price: Double
    /// Epoch ms.
    public var at: Int64

    public init(price: Double, at: Int64) {
        self.price = price
        self.at = at
    }
}
