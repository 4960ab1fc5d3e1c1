import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// Records the deemed acquisition price (소득세법 시행령 §88②): at 2027-01-01 00:00:00 KST, every KRW
/// coin's last trade at or before the instant on each exchange. A minute before the instant every
/// board is woken and holds its ticks (`holdTrades`); a few seconds after, what a board watched
/// through the instant is stored as the stream's reading. From `candleDelay` after the instant
/// each exchange's 1-minute candles are read for every coin it lists — to fill what no stream
/// watched (a server started later fills it all this way) and to check what one did — and read
/// again every `retry` until every listed coin has its candle reading. Every replica may run
/// this: each reading is stored once (`DeemedPriceStore`).
public final class DeemedPriceRecorder: Service, Sendable {
    private let boards: ExchangeBoards
    private let apis: [Exchange: any ExchangeAPI]
    private let store: DeemedPriceStore
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let instant: Int64
    private let timing: Timing
    private let logger: Logger

    public struct Timing: Sendable {
        /// How long before the instant the boards are woken and held.
        public var lead: Int64 = 60_000
        /// How long after the instant the stream's reading is taken (late frames come in).
        public var settle: Int64 = 5_000
        /// When the candles are first read (the minute before the instant is closed by then).
        public var candleDelay: Int64 = 10_000
        /// How often coins still without a candle reading are asked again.
        public var retry: Duration = .seconds(300)
        /// Between two candle requests to one exchange (its limits are shared with the charts).
        public var candlePause: Duration = DeemedCandles.pause

        public init() {}
    }

    public init(
        boards: ExchangeBoards,
        apis: [Exchange: any ExchangeAPI],
        store: DeemedPriceStore,
        clock: WallClock,
        pace: any MonotonicClock = .system,
        instant: Int64 = TaxRules.deemedInstant,
        timing: Timing = Timing(),
        logger: Logger
    ) {
        self.boards = boards
        self.apis = apis
        self.store = store
        self.clock = clock
        self.pace = pace
        self.instant = instant
        self.timing = timing
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            if self.clock.now < self.instant {
                guard await self.sleep(until: self.instant - self.timing.lead) else { return }
                await self.watchStreams()
            }
            guard await self.sleep(until: self.instant + self.timing.candleDelay) else { return }
            while !Task.isCancelled {
                let missing = await self.fillFromCandles()
                // A coin listed after the instant never has a candle before it: past the first day
                // the recorder reads once per start and stops.
                if missing == 0 || self.clock.now > self.instant + 86_400_000 { return }
                self.logger.info("deemed prices: coins still without a candle reading", metadata: ["missing": "\(missing)"])
                do { try await self.pace.sleep(for: self.timing.retry) } catch { return }
            }
        }
    }

    /// Sleeps until the wall clock reads `target` (in steps, so a clock that jumps is followed);
    /// false when cancelled.
    private func sleep(until target: Int64) async -> Bool {
        while !Task.isCancelled {
            let left = target - clock.now
            if left <= 0 { return true }
            do { try await pace.sleep(for: .milliseconds(min(left, 30_000))) } catch { return false }
        }
        return false
    }

    /// Holds every board's ticks across the instant and stores what each watched through it.
    func watchStreams() async {
        let watched = boards.all
        for (_, board) in watched {
            board.viewerArrived()
            await board.holdTrades(atOrBefore: instant)
        }
        _ = await sleep(until: instant + timing.settle)
        var readings: [DeemedReading] = []
        for (exchange, board) in watched {
            let reading = await board.releaseHeldTrades()
            board.viewerLeft()
            guard let reading, reading.watchedThrough else {
                logger.warning("deemed prices: the stream did not watch through the instant", metadata: ["exchange": "\(exchange.rawValue)"])
                continue
            }
            for trade in reading.trades {
                readings.append(
                    DeemedReading(
                        exchange: exchange,
                        coin: trade.market.id.base,
                        source: .stream,
                        price: PortfolioLedger.decimal(from: trade.price),
                        tradedAt: trade.at
                    )
                )
            }
        }
        do {
            let written = try await store.record(instant: instant, readings, at: clock.now)
            logger.info("deemed prices from the streams", metadata: ["readings": "\(readings.count)", "new": "\(written)"])
        } catch {
            logger.error("deemed prices: the store refused the stream readings", metadata: ["error": "\(error)"])
        }
    }

    /// Reads the candles of every listed coin not yet read that way; how many are still missing.
    func fillFromCandles() async -> Int {
        let known = (try? await store.readings(instant: instant)) ?? []
        let have = Set(known.filter { $0.source == .candle }.map { "\($0.exchange.rawValue)|\($0.coin)" })
        return await withTaskGroup(of: Int.self) { group in
            for (exchange, api) in apis {
                group.addTask {
                    guard let listed = await self.listedCoins(exchange, api: api) else { return 1 }
                    let wanted = listed.filter { !have.contains("\(exchange.rawValue)|\($0)") }
                    guard !wanted.isEmpty else { return 0 }
                    let readings = await DeemedCandles.read(
                        wanted,
                        on: exchange,
                        api: api,
                        instant: self.instant,
                        pause: self.timing.candlePause,
                        pace: self.pace
                    )
                    do { try await self.store.record(instant: self.instant, readings, at: self.clock.now) } catch {
                        self.logger.error("deemed prices: the store refused the candle readings", metadata: ["error": "\(error)"])
                        return wanted.count
                    }
                    return wanted.count - readings.count
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// The coins `exchange` lists on its KRW market: its board's, or the exchange's own list.
    private func listedCoins(_ exchange: Exchange, api: any ExchangeAPI) async -> [String]? {
        let rows = boards[exchange]?.snapshot.rows.keys.filter { $0.quote == QuoteCurrency.krw.rawValue } ?? []
        if !rows.isEmpty { return rows.map(\.base).sorted() }
        guard let markets = try? await api.markets() else { return nil }
        return markets.map(\.id).filter { $0.quote == QuoteCurrency.krw.rawValue }.map(\.base).sorted()
    }
}
