import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// Every exchange's wallets (입출금 현황): one poller per exchange however many viewers, once a
/// `interval` (longer when the exchange refuses, as it says), its last good answer kept with its
/// age when asking fails. An exchange that publishes none, or needs a key nobody gave, is said so
/// and never asked.
public final class WalletService: Service, Sendable {
    private let feeds: [Exchange: WalletFeed]
    private let interval: Duration
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let logger: Logger
    private let reports: Mutex<[Exchange: WalletReport]>

    public init(
        feeds: [Exchange: WalletFeed],
        interval: Duration = .seconds(60),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        self.feeds = feeds
        self.interval = interval
        self.clock = clock
        self.pace = pace
        self.logger = logger
        var first: [Exchange: WalletReport] = [:]
        for (exchange, feed) in feeds {
            let state: WalletReport.State =
                switch feed {
                case .source: .waiting
                case .keyNeeded: .keyNeeded
                case .notPublished: .notPublished
                }
            first[exchange] = WalletReport(exchange: exchange, state: state)
        }
        reports = Mutex(first)
    }

    /// One exchange's report now.
    public func report(_ exchange: Exchange) -> WalletReport {
        reports.withLock { $0[exchange] } ?? WalletReport(exchange: exchange, state: .notPublished)
    }

    /// Every exchange's, in the registry's order.
    public var all: [WalletReport] { Exchange.allCases.filter { feeds[$0] != nil }.map(report) }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async {
        await withDiscardingTaskGroup { group in
            for (exchange, feed) in feeds {
                guard case .source(let source) = feed else { continue }
                group.addTask { _ = await self.read(exchange, source) }
            }
        }
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            for (exchange, feed) in feeds {
                guard case .source(let source) = feed else { continue }
                group.addTask { await self.poll(exchange, source) }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func poll(_ exchange: Exchange, _ source: any WalletSource) async {
        while !Task.isCancelled {
            let wait = await read(exchange, source)
            do { try await pace.sleep(for: max(wait, interval)) } catch { return }
        }
    }

    /// One read: the report it leaves, and how long the exchange asked to be left alone.
    private func read(_ exchange: Exchange, _ source: any WalletSource) async -> Duration {
        do {
            let wallets = try await source.wallets()
            let at = clock.now
            reports.withLock { $0[exchange] = WalletReport(exchange: exchange, state: .live, wallets: wallets, at: at) }
            return .zero
        } catch {
            let feedError = error as? FeedError ?? .malformedPayload(context: "wallets")
            logger.debug("wallets failed", metadata: ["exchange": "\(exchange.rawValue)", "error": "\(feedError.message(.en))"])
            let problem = Words(feedError.message)
            reports.withLock { all in
                let last = all[exchange]
                all[exchange] = WalletReport(exchange: exchange, state: .failing, wallets: last?.wallets ?? [], at: last?.at, problem: problem)
            }
            return TickerStream.refusalWait(feedError) ?? .zero
        }
    }
}
