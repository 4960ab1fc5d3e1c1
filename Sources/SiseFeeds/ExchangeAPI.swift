import Foundation
import SiseCore

/// An exchange's public quotation API, as the rest of Sise sees it (SiseCore values, typed
/// errors): `V1QuotationClient` (Upbit, and Bithumb's look-alike) and `KorbitClient` are the live ones.
public protocol ExchangeAPI: Sendable {
    /// Every listed pair with names and warning flags (`/v1/market/all?is_details=true`).
    func markets() async throws -> [Market]
    /// Every ticker of the given quote markets (`/v1/ticker/all?quote_currencies=`).
    func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker]
    /// Tickers for the given pairs (`/v1/ticker?markets=`); one unknown code fails the call (404).
    func tickers(markets: [MarketID]) async throws -> [Ticker]
    /// Candles, newest first (`/v1/candles/...`); `count` 1–200, `to` exclusive.
    func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle]
    /// Order tick per market (`/v1/orderbook/instruments`), which decides the price decimals.
    func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal]
    /// REST requests sent per rate-limit group, and the exchange's 429s and 418s.
    var requestCounts: [RateLimitGroup: UpstreamRequestCount] { get }
    /// The market's order book now (every level the exchange gives, best first), as sent —
    /// consistency is the caller's to check (`Orderbook.checked`).
    func orderbook(market: MarketID) async throws -> Orderbook
    /// The market's last `count` trades, newest first.
    func trades(market: MarketID, count: Int) async throws -> [Trade]
    /// Whether the exchange serves candles of `unit` at all (its own table; charts pick their
    /// intervals by it). Upbit's ladder by default.
    func serves(_ unit: CandleUnit) -> Bool
}

extension ExchangeAPI {
    public var requestCounts: [RateLimitGroup: UpstreamRequestCount] { [:] }

    public func serves(_ unit: CandleUnit) -> Bool {
        if case .minutes(let n) = unit { return CandleUnit.allowedMinutes.contains(n) }
        return true
    }
}

/// An exchange's rate-limit group, spelled as its headers spell it (Upbit's `Remaining-Req:
/// group=ticker`). Known groups are named below; a group an exchange adds is still a group.
public struct RateLimitGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let market = RateLimitGroup(rawValue: "market")
    public static let ticker = RateLimitGroup(rawValue: "ticker")
    public static let candles = RateLimitGroup(rawValue: "candles")
    public static let orderbook = RateLimitGroup(rawValue: "orderbook")
    public static let trade = RateLimitGroup(rawValue: "trade")
    /// The WebSocket upgrade's own reply group.
    public static let websocket = RateLimitGroup(rawValue: "websocket")
    /// WebSocket connection attempts (Upbit: 5 per second per address).
    public static let websocketConnect = RateLimitGroup(rawValue: "websocket-connect")
    /// Requests carrying an `Origin` header (Upbit: 1 per 10 seconds).
    public static let origin = RateLimitGroup(rawValue: "origin")
}
