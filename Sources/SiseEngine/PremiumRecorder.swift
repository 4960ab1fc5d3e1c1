import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// Keeps the premium's history: at every minute, the premium of every (Korean exchange, coin,
/// global venue) and every exchange's 테더 김프, into the store (`PremiumHistoryStore`; one replica
/// writes each minute). It reads what is already live — a watched board's rows, the premium
/// feed's Binance prices and rates — and otherwise asks once: one REST ticker list per idle
/// exchange and one price list per other venue a minute, so recording keeps no stream open.
public final class PremiumRecorder: Service, Sendable {
    private let boards: ExchangeBoards
    private let apis: [Exchange: any ExchangeAPI]
    private let venues: [GlobalVenue: any GlobalPriceAPI]
    private let feed: PremiumFeed
    private let store: PremiumHistoryStore
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let logger: Logger

    /// - Parameter venues: the global venues read over REST (Binance comes from `feed`).
    public init(
        boards: ExchangeBoards,
        apis: [Exchange: any ExchangeAPI],
        venues: [GlobalVenue: any GlobalPriceAPI],
        feed: PremiumFeed,
        store: PremiumHistoryStore,
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        self.boards = boards
        self.apis = apis
        self.venues = venues.filter { $0.key != .binance }
        self.feed = feed
        self.store = store
        self.clock = clock
        self.pace = pace
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastExpiry: Int64 = 0
            while !Task.isCancelled {
                let now = self.clock.now
                // Just past the next minute's start, so the minute's figures are in.
                let wait = HistoryResolution.minute.rawValue - now % HistoryResolution.minute.rawValue + 1_000
                do { try await self.pace.sleep(for: .milliseconds(wait)) } catch { return }
                let written = await self.sample()
                self.logger.debug("premium history", metadata: ["samples": "\(written)"])
                if self.clock.now - lastExpiry >= 3_600_000 {
                    lastExpiry = self.clock.now
                    do { try await self.store.expire(now: lastExpiry) } catch {
                        self.logger.warning("premium history expiry failed", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
    }

    /// Takes this minute's samples and records them; how many were written (0 when another
    /// replica had the minute, or nothing could be measured).
    @discardableResult
    public func sample() async -> Int {
        let now = clock.now
        async let legs = koreanLegs(now: now)
        async let quotes = venueQuotes(now: now)
        let (korean, venuePrices) = await (legs, quotes)
        let status = feed.status
        var prices = venuePrices
        prices[.binance] = feed.binanceQuotes.mapValues { VenueQuote(price: $0.price, at: $0.at) }
        let rows = PremiumMatrix.rows(korean: korean, venues: prices, fx: status.decision.quote, now: now)
        let tether = korean.map { exchange, legs in
            USDTQuote(exchange: exchange, price: legs["USDT"]?.price, at: legs["USDT"]?.at)
        }
        let samples = PremiumSamples.of(matrix: rows, tether: tether, official: status.official.quote, now: now)
        guard !samples.isEmpty else { return 0 }
        do {
            return try await store.record(minute: now, samples) ? samples.count : 0
        } catch {
            logger.warning("premium history write failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// Each exchange's KRW legs: the board's fresh rows, else one REST list.
    private func koreanLegs(now: Int64) async -> [Exchange: [String: PremiumMatrix.Leg]] {
        await withTaskGroup(of: (Exchange, [String: PremiumMatrix.Leg]).self) { group in
            for exchange in Exchange.allCases {
                let board = boards[exchange]
                let api = apis[exchange]
                group.addTask {
                    var legs: [String: PremiumMatrix.Leg] = [:]
                    if let snapshot = board?.snapshot {
                        for row in snapshot.rows(quote: .krw) {
                            guard let at = snapshot.confirmedAt(row.id), now - at <= PremiumMatrix.freshness else { continue }
                            legs[row.id.base] = PremiumMatrix.Leg(price: row.ticker.price, at: at, tradeValue24h: row.ticker.tradeValue24h)
                        }
                    }
                    if legs.isEmpty, let api, let tickers = try? await api.tickers(quotes: [.krw]) {
                        for ticker in tickers where ticker.market.quote == "KRW" {
                            legs[ticker.market.base] = PremiumMatrix.Leg(price: ticker.price, at: now, tradeValue24h: ticker.tradeValue24h)
                        }
                    }
                    return (exchange, legs)
                }
            }
            var out: [Exchange: [String: PremiumMatrix.Leg]] = [:]
            for await (exchange, legs) in group where !legs.isEmpty { out[exchange] = legs }
            return out
        }
    }

    private func venueQuotes(now: Int64) async -> [GlobalVenue: [String: VenueQuote]] {
        await withTaskGroup(of: (GlobalVenue, [String: VenueQuote]?).self) { group in
            for (venue, api) in venues {
                group.addTask { (venue, try? await api.usdtQuotes(now: now)) }
            }
            var out: [GlobalVenue: [String: VenueQuote]] = [:]
            for await (venue, quotes) in group { out[venue] = quotes }
            return out
        }
    }
}
