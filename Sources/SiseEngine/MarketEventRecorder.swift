import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// Keeps the history of every change: once an `interval` it looks at each exchange's market list
/// (listings and flags) and its wallets (`WalletService`'s last answer), compares them with the
/// store's last values (`MarketEventRule`) and writes the changes (`MarketEventStore`: one replica
/// records each event). Each event carries the coin's KRW price then; an hour, a day and a week
/// later the price is read again. The events this replica recorded go to `recorded` (alerts).
public final class MarketEventRecorder: Service, Sendable {
    private let boards: ExchangeBoards?
    private let apis: [Exchange: any ExchangeAPI]
    private let wallets: WalletService?
    private let store: MarketEventStore
    private let interval: Duration
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let logger: Logger
    private let recorded: @Sendable ([MarketEvent]) async -> Void

    public init(
        boards: ExchangeBoards?,
        apis: [Exchange: any ExchangeAPI],
        wallets: WalletService?,
        store: MarketEventStore,
        interval: Duration = .seconds(60),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger,
        recorded: @escaping @Sendable ([MarketEvent]) async -> Void = { _ in }
    ) {
        self.boards = boards
        self.apis = apis
        self.wallets = wallets
        self.store = store
        self.interval = interval
        self.clock = clock
        self.pace = pace
        self.logger = logger
        self.recorded = recorded
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.pass()
                do { try await self.pace.sleep(for: self.interval) } catch { return }
            }
        }
    }

    /// One look at every exchange and the prices due; the events this replica recorded.
    @discardableResult
    public func pass() async -> [MarketEvent] {
        let events = await withTaskGroup(of: [MarketEvent].self) { group in
            for exchange in Exchange.allCases where apis[exchange] != nil {
                group.addTask { await self.look(at: exchange) }
            }
            var all: [MarketEvent] = []
            for await events in group { all += events }
            return all
        }
        await readLaterPrices()
        if !events.isEmpty { await recorded(events) }
        return events
    }

    private func look(at exchange: Exchange) async -> [MarketEvent] {
        guard let api = apis[exchange] else { return [] }
        var observations: [(MarketEventRule.Observation, Int64)] = []
        let now = clock.now
        do {
            observations.append((MarketEventRule.Observation(exchange: exchange, markets: try await api.markets()), now))
        } catch {
            logger.debug("change history: no market list", metadata: ["exchange": "\(exchange)", "error": "\(error)"])
        }
        if let report = wallets?.report(exchange), report.state == .live, let at = report.at {
            observations.append((MarketEventRule.Observation(exchange: exchange, wallets: report.wallets), at))
        }
        var events: [MarketEvent] = []
        do {
            for (observation, at) in observations {
                let stored = try await store.states(exchange)
                let outcome = MarketEventRule.changes(stored: stored, observation: observation)
                if outcome.doubtedDelistings > 0 {
                    logger.warning(
                        "change history: a market list missing too many markets at once was not taken as delistings",
                        metadata: ["exchange": "\(exchange)", "missing": "\(outcome.doubtedDelistings)"]
                    )
                }
                let symbols = Set(outcome.changes.filter { $0.kind != nil }.map(\.aspect.symbol))
                let prices = symbols.isEmpty ? [:] : await krwPrices(exchange, symbols)
                events += try await store.apply(outcome.changes, at: at, prices: prices)
            }
        } catch {
            logger.warning("change history write failed", metadata: ["exchange": "\(exchange)", "error": "\(error)"])
        }
        return events
    }

    /// The due prices an hour, a day and a week after each event, read once per exchange.
    private func readLaterPrices() async {
        let now = clock.now
        guard let due = try? await store.due(now: now), !due.isEmpty else { return }
        for (exchange, items) in Dictionary(grouping: due, by: \.event.exchange) {
            let prices = await krwPrices(exchange, Set(items.map(\.event.symbol)))
            for (event, horizon) in items {
                guard let price = prices[event.symbol] else { continue }
                do { try await store.setLater(event.id, horizon, price: price) } catch {
                    logger.warning("change history: a later price was not written", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// The coins' KRW prices on `exchange` now: the watched board's fresh rows (a server's), else one
    /// ticker list.
    private func krwPrices(_ exchange: Exchange, _ symbols: Set<String>) async -> [String: Double] {
        let now = clock.now
        var prices: [String: Double] = [:]
        if let snapshot = boards?[exchange]?.snapshot {
            for row in snapshot.rows(quote: .krw) where symbols.contains(row.id.base) {
                guard let at = snapshot.confirmedAt(row.id), now - at <= PremiumMatrix.freshness else { continue }
                prices[row.id.base] = row.ticker.price
            }
        }
        guard prices.count < symbols.count, let api = apis[exchange], let tickers = try? await api.tickers(quotes: [.krw]) else { return prices }
        for ticker in tickers where ticker.market.quote == "KRW" && symbols.contains(ticker.market.base) && prices[ticker.market.base] == nil {
            prices[ticker.market.base] = ticker.price
        }
        return prices
    }
}
