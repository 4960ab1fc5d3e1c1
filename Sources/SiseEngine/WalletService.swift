import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// Every exchange's wallets (입출금 현황): one poller per exchange however many viewers, once a
/// `interval` (longer when the exchange refuses, as it says), its last good answer kept with its
/// age when asking fails (`ExchangePolls`). An exchange that publishes none, or needs a key nobody
/// gave, is said so and never asked.
public final class WalletService: Service, Sendable {
    private let polls: ExchangePolls<[WalletStatus]>
    /// The sources asked for one network's fees at a time (Upbit's), and what they said when.
    private let sources: [Exchange: any WalletSource]
    private let fees: Mutex<[String: (fees: WithdrawalTerms?, at: Int64)]> = Mutex([:])
    private let clock: WallClock
    private let logger: Logger
    /// How long a network's fees (or a refusal to give them) are kept.
    static let feesKept: Int64 = 600_000
    /// The most networks of one coin asked for at once.
    static let feeNetworks = 8

    public init(
        feeds: [Exchange: WalletFeed],
        interval: Duration = .seconds(60),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        sources = feeds.compactMapValues { feed in
            if case .source(let source) = feed { return source }
            return nil
        }
        self.clock = clock
        self.logger = logger
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

    /// One exchange's report with the withdrawal fee and minimum of `symbol`'s networks filled in
    /// where the exchange gives them one call at a time (Upbit's `/v1/withdraws/chance`): at most
    /// eight networks, each answer — or refusal (a key without 출금조회) — kept ten minutes, so
    /// pages looking at a coin cost one call per network in that time.
    public func report(_ exchange: Exchange, feesOf symbol: String) async -> WalletReport {
        var report = report(exchange)
        guard let source = sources[exchange] else { return report }
        let now = clock.now
        let missing = report.wallets.indices.filter { report.wallets[$0].currency == symbol && report.wallets[$0].withdrawFee == nil }
        for index in missing.prefix(Self.feeNetworks) {
            let wallet = report.wallets[index]
            let key = "\(exchange.rawValue)|\(wallet.currency)|\(wallet.network)"
            var known = fees.withLock { $0[key] }.flatMap { now - $0.at < Self.feesKept ? $0 : nil }
            if known == nil {
                let asked: WithdrawalTerms?
                do { asked = try await source.fees(currency: wallet.currency, network: wallet.network) } catch {
                    logger.debug("withdrawal fees not given", metadata: ["exchange": "\(exchange)", "error": "\(error)"])
                    asked = nil
                }
                known = (asked, now)
                fees.withLock { $0[key] = (asked, now) }
            }
            report.wallets[index].withdrawFee = known?.fees?.fee
            report.wallets[index].withdrawMinimum = known?.fees?.minimum
        }
        return report
    }

    /// Every exchange's, in the registry's order.
    public var all: [WalletReport] { polls.exchanges.map(report) }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async { await polls.refresh() }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.polls.run() }
    }
}
