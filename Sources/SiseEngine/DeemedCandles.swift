import Foundation
import SiseCore
import SiseFeeds

/// The deemed price from an exchange's 1-minute candles: the close of the last minute that
/// traded before the instant (a candle holds the trades of [start, start + 1 min); the close is
/// its last). Read after the instant — to fill what no stream watched, and to check what one did.
public enum DeemedCandles {
    /// Upbit's candle group allows 10 a second and the charts share it: the recorder keeps to this.
    public static let pause: Duration = .milliseconds(250)

    /// `coins`' readings on `exchange` (a coin without a candle before the instant, or whose
    /// request fails, gives none; the caller asks again later).
    public static func read(
        _ coins: [String],
        on exchange: Exchange,
        api: any ExchangeAPI,
        instant: Int64,
        pause: Duration = pause,
        pace: any MonotonicClock = .system
    ) async -> [DeemedReading] {
        var readings: [DeemedReading] = []
        for (index, coin) in coins.enumerated() {
            if Task.isCancelled { break }
            if index > 0 { try? await pace.sleep(for: pause) }
            guard let reading = await reading(coin, on: exchange, api: api, instant: instant) else { continue }
            readings.append(reading)
        }
        return readings
    }

    static func reading(_ coin: String, on exchange: Exchange, api: any ExchangeAPI, instant: Int64) async -> DeemedReading? {
        let market = MarketID(quote: QuoteCurrency.krw.rawValue, base: coin)
        let to = Date(timeIntervalSince1970: Double(instant) / 1_000)
        guard let candles = try? await api.candles(market: market, unit: .minutes(1), count: 2, to: to) else { return nil }
        // Newest first; an exchange that counts `to` in gives the instant's own minute too.
        guard let last = candles.first(where: { Int64(($0.start.timeIntervalSince1970 * 1_000).rounded()) < instant }),
            last.close > 0, last.close.isFinite
        else { return nil }
        let start = Int64((last.start.timeIntervalSince1970 * 1_000).rounded())
        let tradedAt = last.lastTradeAt > start && last.lastTradeAt < instant ? last.lastTradeAt : start
        return DeemedReading(exchange: exchange, coin: coin, source: .candle, price: PortfolioLedger.decimal(from: last.close), tradedAt: tradedAt)
    }

    /// Before the instant: each coin's price now on every exchange that lists it (as if the
    /// year ended now), from the exchanges' KRW tickers.
    public static func live(_ tickers: [Exchange: [Ticker]]) -> [String: DeemedPrice] {
        var quotes: [String: [DeemedPrice.Quote]] = [:]
        for (exchange, list) in tickers {
            for ticker in list where ticker.market.quote == QuoteCurrency.krw.rawValue && ticker.price > 0 && ticker.price.isFinite {
                quotes[ticker.market.base, default: []].append(
                    DeemedPrice.Quote(
                        exchange: exchange,
                        price: PortfolioLedger.decimal(from: ticker.price),
                        source: .live,
                        tradedAt: ticker.tradeTimestamp
                    )
                )
            }
        }
        return quotes.reduce(into: [:]) { $0[$1.key] = DeemedPrice(coin: $1.key, quotes: $1.value) }
    }
}
