import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds

/// Every exchange's wallets (입출금 현황): one poller per exchange however many viewers, once a
/// `interval` (longer when the exchange refuses, as it says), its last good answer kept with its
/// age when asking fails (`ExchangePolls`). An exchange that publishes none, or needs a key nobody
/// gave, is said so and never asked.
public final class WalletService: Service, Sendable {
    private let polls: ExchangePolls<[WalletStatus]>

    public init(
        feeds: [Exchange: WalletFeed],
        interval: Duration = .seconds(60),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        polls = ExchangePolls(
            sources: feeds.mapValues { feed in
                switch feed {
                case .source(let source): .read { try await source.wallets() }
                case .keyNeeded: .unavailable(.keyNeeded)
                case .notPublished: .unavailable(.notPublished)
                }
            },
            interval: interval,
            clock: clock,
            pace: pace,
            logger: logger,
            what: "wallets"
        )
    }

    /// One exchange's report now.
    public func report(_ exchange: Exchange) -> WalletReport {
        guard let report = polls.report(exchange) else { return WalletReport(exchange: exchange, state: .notPublished) }
        return WalletReport(
            exchange: exchange,
            state: WalletReport.State(rawValue: report.state.rawValue) ?? .failing,
            wallets: report.value ?? [],
            at: report.at,
            problem: report.problem
        )
    }

    /// Every exchange's, in the registry's order.
    public var all: [WalletReport] { polls.exchanges.map(report) }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async { await polls.refresh() }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.polls.run() }
    }
}
