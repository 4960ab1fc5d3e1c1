import Foundation
import SiseCore

/// An exchange that names no coin (Korbit lists `btc_krw` and nothing more) borrows the names
/// other exchanges give the same symbol: Korean and English, from the first lender that
/// answers. Everything else passes through.
public struct MarketNameLender: ExchangeAPI {
    private let api: any ExchangeAPI
    public var requestCounts: [RateLimitGroup: UpstreamRequestCount] { api.requestCounts }
    private let lenders: [any ExchangeAPI]

    public init(_ api: any ExchangeAPI, lenders: [any ExchangeAPI]) {
        self.api = api
        self.lenders = lenders
    }

    public func markets() async throws -> [Market] {
        let markets = try await api.markets()
        guard markets.contains(where: { $0.koreanName.isEmpty }) else { return markets }
        var names: [String: (ko: String, en: String)] = [:]
        for lender in lenders {
            // A lender that cannot answer now lends nothing; the symbol stands in.
            guard let listing = try? await lender.markets() else { continue }
            for market in listing where names[market.symbol] == nil && !market.koreanName.isEmpty {
                names[market.symbol] = (market.koreanName, market.englishName)
            }
            if markets.allSatisfy({ !$0.koreanName.isEmpty || names[$0.symbol] != nil }) { break }
        }
        return markets.map { market in
            guard market.koreanName.isEmpty, let name = names[market.symbol] else { return market }
            return market.renamed(korean: name.ko, english: name.en)
        }
    }

    public func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] { try await api.tickers(quotes: quotes) }
    public func tickers(markets: [MarketID]) async throws -> [Ticker] { try await api.tickers(markets: markets) }
    public func serves(_ unit: CandleUnit) -> Bool { api.serves(unit) }
    public func orderbook(market: MarketID) async throws -> Orderbook { try await api.orderbook(market: market) }
    public func trades(market: MarketID, count: Int) async throws -> [Trade] { try await api.trades(market: market, count: count) }

    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        try await api.candles(market: market, unit: unit, count: count, to: to)
    }
    public func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { try await api.tickSizes(markets: markets) }
}
