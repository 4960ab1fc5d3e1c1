import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// Every exchange's latest notices: one poller per exchange that publishes them (every 5 minutes:
/// they change rarely, and Upbit's is an undocumented web JSON to be asked sparingly), the last
/// answer kept when asking fails.
public final class NoticeService: Service, Sendable {
    public struct Report: Sendable {
        public enum State: String, Sendable, Codable { case live, failing, waiting, notPublished }
        public var exchange: Exchange
        public var state: State
        public var notices: [ExchangeNotice]
        public var at: Int64?
        public var problem: Words?
    }

    private let feeds: [Exchange: NoticeFeed]
    private let interval: Duration
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let logger: Logger
    private let reports: Mutex<[Exchange: Report]>

    public init(
        feeds: [Exchange: NoticeFeed],
        interval: Duration = .seconds(300),
        clock: WallClock,
        pace: any MonotonicClock = .system,
        logger: Logger
    ) {
        self.feeds = feeds
        self.interval = interval
        self.clock = clock
        self.pace = pace
        self.logger = logger
        var first: [Exchange: Report] = [:]
        for (exchange, feed) in feeds {
            var published = false
            if case .source = feed { published = true }
            first[exchange] = Report(exchange: exchange, state: published ? .waiting : .notPublished, notices: [])
        }
        reports = Mutex(first)
    }

    /// Every exchange's report, in the registry's order.
    public var all: [Report] { Exchange.allCases.compactMap { exchange in reports.withLock { $0[exchange] } } }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async {
        await withDiscardingTaskGroup { group in
            for (exchange, feed) in feeds {
                guard case .source(let source) = feed else { continue }
                group.addTask { await self.read(exchange, source) }
            }
        }
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            for (exchange, feed) in feeds {
                guard case .source(let source) = feed else { continue }
                group.addTask {
                    while !Task.isCancelled {
                        await self.read(exchange, source)
                        do { try await self.pace.sleep(for: self.interval) } catch { return }
                    }
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func read(_ exchange: Exchange, _ source: any NoticeSource) async {
        do {
            let notices = try await source.notices()
            let at = clock.now
            reports.withLock { $0[exchange] = Report(exchange: exchange, state: .live, notices: notices, at: at) }
        } catch {
            let failure = error as? FeedError ?? .malformedPayload(context: "notices")
            logger.debug("notices failed", metadata: ["exchange": "\(exchange.rawValue)", "error": "\(failure.message(.en))"])
            reports.withLock { all in
                let last = all[exchange]
                all[exchange] = Report(
                    exchange: exchange,
                    state: .failing,
                    notices: last?.notices ?? [],
                    at: last?.at,
                    problem: Words(failure.message)
                )
            }
        }
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
                case .notPublished: UIText.noticesNotPublished(language, name)
                case .waiting: report.exchange.displayName + ": " + UIText.loading(language)
                case .failing: report.exchange.displayName + ": " + (report.problem?(language) ?? "-")
                }
            return NoticesTable.Source(exchange: report.exchange, state: report.state.rawValue, message: message)
        }
        return NoticesTable(sources: sources, notices: reports.flatMap(\.notices), symbol: symbol, kind: kind, limit: limit, language: language)
    }
}
