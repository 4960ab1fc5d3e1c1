import Foundation
import SiseCore

/// Upbit's public quotation API, as the rest of Sise sees it (SiseCore values, typed errors).
public protocol UpbitAPI: Sendable {
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
}

/// Upbit's rate-limit groups, spelled as the `Remaining-Req` header spells them.
public enum UpbitGroup: String, CaseIterable, Sendable {
    case market
    case ticker
    case candles
    case orderbook
    case trade
}
