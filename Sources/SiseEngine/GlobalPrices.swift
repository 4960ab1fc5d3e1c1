import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// Every global venue's USDT prices for the premium matrix: one poller per venue however many
/// viewers, asking only while someone looked within `idleAfter` (idle when nobody looks),
/// waiting out a refusal as the venue says. Binance comes from the premium feed's own stream when
/// there is one (no second connection to the same venue).
public final class GlobalPrices: Service, Sendable {
    /// Where a venue stands, for the faces.
    public struct VenueStatus: Sendable, Equatable {
        /// `live` (answering), `idle` (nobody looks), `failing` (the last ask failed), `waiting` (not yet asked).
        public var state: String
        /// When the last good answer came (epoch ms).
        public var at: Int64?
        public var problem: Words?
    }

    private struct State {
        var quotes: [GlobalVenue: [String: VenueQuote]] = [:]
        var status: [GlobalVenue: VenueStatus] = [:]
        /// When someone last looked (nil: nobody yet).
        var lastDemand: Int64?
    }

    private let apis: [GlobalVenue: any GlobalPriceAPI]
    private let intervals: [GlobalVenue: Duration]
    private let binance: PremiumFeed?
    private let clock: WallClock
    private let pace: any MonotonicClock
    private let idleAfter: Int64
    private let logger: Logger
    private let state = Mutex(State())
    private let demand = Wakeup()

    /// - Parameters:
    ///   - apis: the venues polled over REST (Binance too when there is no feed).
    ///   - binance: the premium feed whose Binance prices stand for that venue.
    public init(
        apis: [GlobalVenue: any GlobalPriceAPI],
        intervals: [GlobalVenue: Duration] = [:],
        binance: PremiumFeed?,
        clock: WallClock,
        pace: any MonotonicClock = .system,
        idleAfter: Duration = .seconds(60),
        logger: Logger
    ) {
        self.apis = binance == nil ? apis : apis.filter { $0.key != .binance }
        self.intervals = intervals
        self.binance = binance
        self.clock = clock
        self.pace = pace
        self.idleAfter = max(1, idleAfter.components.seconds) * 1_000
        self.logger = logger
    }

    /// Someone looks: the pollers run (or wake) for the next `idleAfter`.
    public func touch() {
        let now = clock.now
        let wasIdle = state.withLock { s in
            defer { s.lastDemand = now }
            return s.lastDemand.map { now - $0 > idleAfter } ?? true
        }
        if wasIdle { demand.signal() }
    }

    /// Each venue's quotes now, by base symbol (touching: a read is a look).
    public func quotes() -> [GlobalVenue: [String: VenueQuote]] {
        touch()
        var quotes = state.withLock { $0.quotes }
        if let binance {
            quotes[.binance] = binance.binanceQuotes.mapValues { VenueQuote(price: $0.price, at: $0.at) }
        }
        return quotes
    }

    public func status(_ venue: GlobalVenue) -> VenueStatus {
        if venue == .binance, let binance {
            let status = binance.status
            return VenueStatus(state: status.global == "offline" ? "failing" : "live", at: status.globalAt, problem: nil)
        }
        return state.withLock { $0.status[venue] } ?? VenueStatus(state: "waiting", at: nil, problem: nil)
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            for (venue, api) in apis {
                group.addTask { await self.poll(venue, api) }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private var demanded: Bool {
        let now = clock.now
        return state.withLock { s in s.lastDemand.map { now - $0 <= idleAfter } ?? false }
    }

    private func poll(_ venue: GlobalVenue, _ api: any GlobalPriceAPI) async {
        let interval = intervals[venue] ?? GlobalVenueRegistry.spec(venue).pollInterval
        while !Task.isCancelled {
            guard demanded else {
                state.withLock { s in
                    if var status = s.status[venue], status.state != "idle" {
                        status.state = "idle"
                        s.status[venue] = status
                    }
                }
                do { try await demand.wait(upTo: .seconds(3_600), on: pace) } catch { return }
                continue
            }
            var wait = interval
            do {
                let quotes = try await api.usdtQuotes(now: clock.now)
                let at = clock.now
                state.withLock { s in
                    s.quotes[venue] = quotes
                    s.status[venue] = VenueStatus(state: "live", at: at, problem: nil)
                }
            } catch let error as FeedError {
                logger.debug("global venue failed", metadata: ["venue": "\(venue.rawValue)", "error": "\(error)"])
                state.withLock { s in
                    s.status[venue] = VenueStatus(state: "failing", at: s.status[venue]?.at, problem: Words(error.message))
                }
                if let refusal = TickerStream.refusalWait(error) { wait = max(wait, refusal) }
            } catch {
                return
            }
            do { try await pace.sleep(for: wait) } catch { return }
        }
    }
}

extension GlobalPrices {
    /// One coin's quote on every venue that has it (touching: a read is a look).
    public func quotes(for symbol: String) -> [GlobalVenue: VenueQuote] {
        touch()
        var out = state.withLock { s in s.quotes.compactMapValues { $0[symbol] } }
        if let quote = binance?.binanceQuote(symbol) { out[.binance] = VenueQuote(price: quote.price, at: quote.at) }
        return out
    }
}
