import Foundation
import Logging
import SiseCore
import SiseFeeds
import Synchronization

/// One poller per exchange for something it publishes (its wallets, its notices): each asked once
/// an `interval` — longer when it refuses, as it says — however many faces read the answers; the
/// last good answer kept with its age when asking fails. An exchange that cannot be asked (it
/// publishes nothing, or needs a key nobody gave) keeps the state it was given and is never asked.
public final class ExchangePolls<Value: Sendable>: Sendable {
    public enum State: String, Sendable, Codable {
        case live, failing, waiting, notPublished, keyNeeded
    }

    public struct Report: Sendable {
        public var exchange: Exchange
        public var state: State
        /// The last good answer (kept through failures).
        public var value: Value?
        /// When it was read, epoch ms.
        public var at: Int64?
        public var problem: Words?
    }

    /// How an exchange is asked, or why it is not.
    public enum Source: Sendable {
        case read(@Sendable () async throws -> Value)
        case unavailable(State)
    }

    private let sources: [Exchange: Source]
    private let interval: Duration
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let logger: Logger
    /// What is asked for, in log lines (`wallets`).
    private let what: String
    private let reports: Mutex<[Exchange: Report]>

    public init(
        sources: [Exchange: Source],
        interval: Duration,
        clock: WallClock,
        pace: any MonotonicClock,
        logger: Logger,
        what: String
    ) {
        self.sources = sources
        self.interval = interval
        self.clock = clock
        self.pace = pace
        self.logger = logger
        self.what = what
        var first: [Exchange: Report] = [:]
        for (exchange, source) in sources {
            var state = State.waiting
            if case .unavailable(let why) = source { state = why }
            first[exchange] = Report(exchange: exchange, state: state)
        }
        reports = Mutex(first)
    }

    /// The exchanges it holds, in the registry's order.
    public var exchanges: [Exchange] { Exchange.allCases.filter { sources[$0] != nil } }

    public func report(_ exchange: Exchange) -> Report? { reports.withLock { $0[exchange] } }

    /// Asks every exchange once now (a one-shot command; tests).
    public func refresh() async {
        await withDiscardingTaskGroup { group in
            for (exchange, source) in sources {
                guard case .read(let read) = source else { continue }
                group.addTask { _ = await self.read(exchange, read) }
            }
        }
    }

    /// Polls every exchange that can be asked until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for (exchange, source) in sources {
                guard case .read(let read) = source else { continue }
                group.addTask {
                    while !Task.isCancelled {
                        let wait = await self.read(exchange, read)
                        do { try await self.pace.sleep(for: max(wait, self.interval)) } catch { return }
                    }
                }
            }
        }
    }

    /// One read: how long the exchange asked to be left alone.
    private func read(_ exchange: Exchange, _ read: @Sendable () async throws -> Value) async -> Duration {
        do {
            let value = try await read()
            let at = clock.now
            reports.withLock { $0[exchange] = Report(exchange: exchange, state: .live, value: value, at: at) }
            return .zero
        } catch {
            let failure = error as? FeedError ?? .malformedPayload(context: what)
            logger.debug("\(what) failed", metadata: ["exchange": "\(exchange.rawValue)", "error": "\(failure.message(.en))"])
            reports.withLock { all in
                let last = all[exchange]
                all[exchange] = Report(exchange: exchange, state: .failing, value: last?.value, at: last?.at, problem: Words(failure.message))
            }
            return TickerStream.refusalWait(failure) ?? .zero
        }
    }
}
