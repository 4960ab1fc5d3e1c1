import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// The kimchi premium's inputs, live, for every face: Binance's USDT prices (one WebSocket for
/// every viewer, REST `/ticker/price` while the socket is down), CoinGecko's USD prices for coins
/// Binance does not list (out of the shared ranking, no extra call), and KRW per USD as the one
/// FX rule (`FXPlan`) decides it — with the official rate beside it for 테더 김프. Faces read
/// `inputs` (no await) and follow `updates()` (the symbols whose premium may have moved; `*`
/// when the rate moved).
public final class PremiumFeed: Service, Sendable {
    public struct Configuration: Sendable {
        public var fx: FXSource
        /// REST polling while the stream is down.
        public var restInterval: Duration = .seconds(5)
        public var dunamuInterval: Duration = .seconds(300)
        public var coinGeckoInterval: Duration = .seconds(120)
        /// Korea Eximbank posts once a day.
        public var eximbankInterval: Duration = .seconds(3_600)
        /// A source whose last attempt failed is asked again this soon (or at its own pace).
        public var retryInterval: Duration = .seconds(30)

        public init(fx: FXSource = .upbitUSDT) {
            self.fx = fx
        }
    }

    /// Where things stand, for the faces' source labels and for `/api/status`.
    public struct Status: Sendable, Equatable {
        /// `live` (stream), `polling` (REST), `offline`.
        public var global: String
        public var globalAt: Int64?
        public var fx: FXQuote?
        /// The chosen source failed and this one stands in.
        public var fxFallback: Bool
        public var fxSource: FXSource
        /// The premium's rate as the plan decided it (source, stand-in, what was passed over).
        public var decision: FXDecision
        /// The official USD/KRW (테더 김프's yardstick), decided by the same rule.
        public var official: FXDecision
    }

    private struct State {
        var binance: [String: GlobalQuote] = [:]
        var coinGecko: [String: GlobalQuote] = [:]
        var merged: [String: GlobalQuote] = [:]
        var decision: FXDecision
        var official: FXDecision
        var streamUp = false
        var lastStreamPrices: Int64 = 0
        var lastRest: Int64 = 0
    }

    public let configuration: Configuration
    private let binance: BinanceClient
    private let stream: BinanceMiniTickerStream
    private let polling: QuietPolling
    private let upbit: LiveBoard
    private let reader: FXReader
    /// The one FX rule, over the sources this setup reaches.
    public let plan: FXPlan
    private let coinInfo: CoinInfoService?
    private let logger: Logger
    private let now: @Sendable () -> Int64
    /// What the feed's cadences (REST while the stream is quiet, CoinGecko, the rate) wait on.
    private let pace: any MonotonicClock
    private let state: Mutex<State>
    private let subscribers = Mutex<[UInt64: AsyncStream<Set<String>>.Continuation]>([:])
    private let counter = Atomic<UInt64>(0)
    static let usdt = MarketID(quote: "KRW", base: "USDT")

    public init(
        configuration: Configuration,
        binance: BinanceClient,
        stream: BinanceMiniTickerStream,
        upbit: LiveBoard,
        fx reader: FXReader,
        coinInfo: CoinInfoService?,
        logger: Logger,
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds,
        pace: any MonotonicClock = .system
    ) {
        self.configuration = configuration
        self.binance = binance
        self.stream = stream
        self.pace = pace
        polling = QuietPolling(interval: configuration.restInterval, clock: pace)
        self.upbit = upbit
        self.reader = reader
        let plan = FXPlan(chosen: configuration.fx, eximbankKey: reader.reaches(.eximbank))
        self.plan = plan
        state = Mutex(
            State(decision: FXDecision(chosen: plan.order.first, quote: nil), official: FXDecision(chosen: plan.officialOrder.first, quote: nil))
        )
        self.coinInfo = coinInfo
        self.logger = logger
        self.now = now
    }

    /// The inputs as they are now.
    public var inputs: PremiumInputs {
        let current = now()
        return state.withLock {
            PremiumInputs(global: $0.merged, fx: $0.decision.quote, now: current, decision: $0.decision, official: $0.official.quote)
        }
    }

    /// Binance's own prices (no CoinGecko stand-ins), as the stream or REST last gave them.
    public var binanceQuotes: [String: GlobalQuote] { state.withLock { $0.binance } }

    /// One coin's Binance quote.
    public func binanceQuote(_ symbol: String) -> GlobalQuote? { state.withLock { $0.binance[symbol] } }

    public var status: Status {
        let current = now()
        return state.withLock { s in
            let global =
                s.streamUp && current - s.lastStreamPrices <= KimchiPremium.bound(.binance)
                ? "live"
                : current - s.lastRest <= KimchiPremium.bound(.binance) ? "polling" : "offline"
            return Status(
                global: global,
                globalAt: max(s.lastStreamPrices, s.lastRest) == 0 ? nil : max(s.lastStreamPrices, s.lastRest),
                fx: s.decision.quote,
                fxFallback: s.decision.fallback,
                fxSource: configuration.fx,
                decision: s.decision,
                official: s.official
            )
        }
    }

    /// Symbols whose global price moved (`*`: the rate moved, every premium did).
    public func updates() -> AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .bufferingNewest(32))
        let id = counter.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    private func publish(_ symbols: Set<String>) {
        guard !symbols.isEmpty else { return }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(symbols) }
    }

    // MARK: - Service

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followStream() }
            group.addTask { await self.pollREST() }
            group.addTask { await self.followFX() }
            if coinInfo != nil { group.addTask { await self.followCoinGecko() } }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    private func followStream() async {
        await stream.run { event in
            switch event {
            case .connected:
                self.state.withLock { $0.streamUp = true }
            case .prices(let prices, let at):
                self.apply(prices, at: at == 0 ? self.now() : min(at, self.now()), source: .binance, stream: true)
            case .disconnected(let error):
                self.state.withLock { $0.streamUp = false }
                self.polling.streamDropped()
                self.logger.debug("binance stream down", metadata: ["error": "\(error)"])
            }
        }
    }

    /// While the stream delivers nothing, one REST call every few seconds (weight 4 of 6,000 a
    /// minute), waiting out a 429 or a 418 as Binance says — the board's rule (`QuietPolling`).
    private func pollREST() async {
        await polling.run(
            quiet: { state.withLock { !$0.streamUp || now() - $0.lastStreamPrices > 5_000 } },
            step: {
                do {
                    let (prices, used) = try await binance.usdtPricesAndWeight()
                    let at = now()
                    state.withLock { $0.lastRest = at }
                    apply(prices, at: at, source: .binance, stream: false)
                    // Past 80 % of the minute's weight (other programs on this address count
                    // too): wait the minute out rather than meet a 429.
                    if let used, used * 5 >= BinanceClient.weightPerMinute * 4 { return .seconds(60) }
                } catch let error as FeedError {
                    logger.debug("binance REST failed", metadata: ["error": "\(error)"])
                    if let refusal = TickerStream.refusalWait(error) { return refusal }
                } catch {}
                return .zero
            }
        )
    }

    /// USD prices of the top coins (the shared USD ranking) for symbols Binance lacks.
    private func followCoinGecko() async {
        guard let coinInfo else { return }
        while !Task.isCancelled {
            if let ranking = try? await coinInfo.ranking(currency: .usd, blocks: 1) {
                let quotes = Self.coinGeckoQuotes(ranking.value, at: ranking.fetchedAt)
                state.withLock { s in
                    s.coinGecko = quotes
                    s.merged = Self.merge(s.binance, quotes, now: now())
                }
                publish(Set(quotes.keys))
            }
            do { try await pace.sleep(for: configuration.coinGeckoInterval) } catch { return }
        }
    }

    private func apply(_ prices: [String: Double], at: Int64, source: GlobalPriceSource, stream: Bool) {
        let current = now()
        state.withLock { s in
            for (symbol, price) in prices { s.binance[symbol] = GlobalQuote(price: price, at: at, source: source) }
            if stream { s.lastStreamPrices = current }
            s.merged = Self.merge(s.binance, s.coinGecko, now: current)
        }
        publish(Set(prices.keys))
    }

    /// USD prices from CoinGecko's USD ranking, one per symbol (the best-ranked coin of a symbol).
    public static func coinGeckoQuotes(_ ranking: [RankedCoin], at: Int64) -> [String: GlobalQuote] {
        var quotes: [String: GlobalQuote] = [:]
        for coin in ranking.sorted(by: { ($0.rank ?? .max) < ($1.rank ?? .max) }) where quotes[coin.symbol] == nil {
            if let price = coin.price, price > 0 { quotes[coin.symbol] = GlobalQuote(price: price, at: at, source: .coingecko) }
        }
        return quotes
    }

    /// Binance where its quote is fresh; CoinGecko where Binance has none (or only a stale one).
    public static func merge(_ binance: [String: GlobalQuote], _ coinGecko: [String: GlobalQuote], now: Int64) -> [String: GlobalQuote] {
        var merged = coinGecko
        for (symbol, quote) in binance where now - quote.at <= KimchiPremium.bound(.binance) || merged[symbol] == nil {
            merged[symbol] = quote
        }
        return merged
    }

    // MARK: - The rate

    /// Every second: the plan walked over the sources (each read at its own pace, a failed one
    /// retried sooner), for the premium's rate and for the official one.
    private func followFX() async {
        var held: [FXSource: (reading: FXReading, at: Int64)] = [:]
        while !Task.isCancelled {
            let current = now()
            let read = { (source: FXSource) async -> FXReading? in
                if source == .upbitUSDT, let live = self.liveUSDT(current) { return .rate(live) }
                if let kept = held[source], current - kept.at < self.interval(source, failed: kept.reading.failed) { return kept.reading }
                guard let reading = await self.reader.read(source, now: current) else { return nil }
                held[source] = (reading, current)
                return reading
            }
            let decision = await FXPlan.resolve(plan.order, now: current, read: read).decision
            let official = await FXPlan.resolve(plan.officialOrder, now: current, read: read).decision
            let changed = state.withLock { s in
                defer {
                    s.decision = decision
                    s.official = official
                }
                return s.decision.quote?.krwPerUSD != decision.quote?.krwPerUSD || s.decision.fallback != decision.fallback
                    || s.official.quote?.krwPerUSD != official.quote?.krwPerUSD
            }
            if changed { publish(["*"]) }
            do { try await pace.sleep(for: .seconds(1)) } catch { return }
        }
    }

    /// How long a reading of `source` is kept before it is read again.
    private func interval(_ source: FXSource, failed: Bool) -> Int64 {
        let own: Duration =
            switch source {
            case .upbitUSDT: .seconds(10)
            case .dunamu: configuration.dunamuInterval
            case .coingecko: configuration.coinGeckoInterval
            case .eximbank: configuration.eximbankInterval
            }
        return Self.milliseconds(failed ? min(own, configuration.retryInterval) : own)
    }

    /// Upbit's KRW-USDT from the live board, while it is fresh (REST stands in otherwise).
    private func liveUSDT(_ current: Int64) -> FXQuote? {
        let snapshot = upbit.snapshot
        guard let row = snapshot.rows[Self.usdt], let at = snapshot.confirmedAt(Self.usdt), current - at <= 30_000 else { return nil }
        return FXQuote(krwPerUSD: row.ticker.price, at: at, source: .upbitUSDT)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
