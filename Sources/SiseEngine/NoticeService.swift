import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// Every exchange's latest notices: one poller per exchange that publishes them (every 5 minutes:
/// they change rarely, and Upbit's is an undocumented web JSON to be asked sparingly), the last
/// answer kept when asking fails (`ExchangePolls`).
public final class NoticeService: Service, Sendable {
    public struct Report: Sendable {
        public var exchange: Exchange
        public var state: ExchangePolls<[ExchangeNotice]>.State
        public var notices: [ExchangeNotice]
        public var problem: Words?
    }

    private let polls: ExchangePolls<[ExchangeNotice]>

    public init(
        feeds: [Exchange: NoticeFeed],
        interval: Duration = .seconds(300),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        polls = ExchangePolls(
            sources: feeds.mapValues { feed in
                switch feed {
                case .source(let source): .read { try await source.notices() }
                case .notPublished: .unavailable(.notPublished)
                }
            },
            interval: interval,
            clock: clock,
            pace: pace,
            logger: logger,
            what: "notices"
        )
    }

    /// Every exchange's report, in the registry's order.
    public var all: [Report] {
        polls.exchanges.compactMap { exchange in
            polls.report(exchange).map { Report(exchange: exchange, state: $0.state, notices: $0.value ?? [], problem: $0.problem) }
        }
    }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async { await polls.refresh() }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.polls.run() }
    }
}

extension NoticeService {
    /// The table every face shows: the exchanges' states in words, their notices filtered.
    public func table(symbol: String?, kind: NoticeKind?, limit: Int = 50, language: Language) -> NoticesTable {
        let reports = all
        let sources = reports.map { report in
            let name = ["exchange": report.exchange.displayName]
            let message: String? =
                switch report.state {
                case .live: nil
                case .notPublished, .keyNeeded: UIText.noticesNotPublished(language, name)
                case .waiting: report.exchange.displayName + ": " + UIText.loading(language)
                case .failing: report.exchange.displayName + ": " + (report.problem?(language) ?? "-")
                }
            return NoticesTable.Source(exchange: report.exchange, state: report.state.rawValue, message: message)
        }
        return NoticesTable(sources: sources, notices: reports.flatMap(\.notices), symbol: symbol, kind: kind, limit: limit, language: language)
    }
}
