import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// The premium's inputs for a one-shot command (`sise markets`, `sise premium`): one Binance
/// REST call, one rate (Upbit's KRW-USDT ticker, Dunamu's, or CoinGecko's), in parallel. A
/// source that fails leaves premiums unknown (null) and says why; it never fails the command.
enum OneShotPremium {
    struct Result {
        var inputs: PremiumInputs
        /// Why some or all premiums are unknown.
        var problems: [String]
        /// What a board's 김프 column reads (the venue's own prices, no stand-in).
        var board: PremiumInputs { inputs.withoutStandIns }
    }

    /// `exchange`'s board of `quote` and, for KRW, the premium's inputs, fetched together.
    static func board(
        _ exchange: Exchange,
        quote: QuoteCurrency,
        premium: PremiumSettings,
        settings: Settings,
        coinGecko: CoinGeckoOptions
    ) async throws -> ([MarketRow], Result?) {
        try await rows(exchange, withPremium: quote == .krw, premium: premium, settings: settings, coinGecko: coinGecko) { api in
            try await BoardLoader(api: api, exchange: exchange).load(quote: quote)
        }
    }

    /// Rows `load` reads from `exchange` and, when `withPremium`, the premium's inputs fetched
    /// beside them — the same lookup (Binance, CoinGecko where Binance has no price, the rate)
    /// for every one-shot command, as `sise serve` and the TUI keep it live.
    static func rows(
        _ exchange: Exchange,
        withPremium: Bool,
        premium: PremiumSettings,
        settings: Settings,
        coinGecko: CoinGeckoOptions,
        _ load: @escaping (any ExchangeAPI) async throws -> [MarketRow]
    ) async throws -> ([MarketRow], Result?) {
        try await Root.oneShot(settings) { root in
            let api = root.api(exchange)
            let coinGecko = try root.coinGecko(coinGecko)
            guard withPremium else { return (try await load(api), nil) }
            // The premium never fails the board, nor holds it up for long: its problems come back
            // as words, and an unreachable source is given up on shortly after the board is in.
            let inputs = Task { await Self.inputs(premium, root: root, coinGecko: coinGecko) }
            let rows: [MarketRow]
            do {
                rows = try await load(api)
            } catch {
                inputs.cancel()
                _ = await inputs.value
                throw error
            }
            return (rows, await Self.awaiting(inputs, upTo: grace, language: settings.language))
        }
    }

    /// How long the premium may keep a loaded board waiting.
    static let grace = Duration.milliseconds(1_500)

    /// The task's result, or — past `limit` — the task cancelled and the reason said.
    static func awaiting(_ task: Task<Result, Never>, upTo limit: Duration, language: Language) async -> Result {
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = await task.value
                return true
            }
            group.addTask { (try? await Task.sleep(for: limit)) != nil ? false : true }
            let first = await group.next() ?? true
            if !first { task.cancel() }
            group.cancelAll()
            return first
        }
        let result = await task.value
        return finished
            ? result : Result(inputs: result.inputs, problems: result.problems.isEmpty ? [FeedError.timeout.message(language)] : result.problems)
    }

    static func inputs(_ premium: PremiumSettings, root: Root, coinGecko: CoinGeckoClient) async -> Result {
        let settings = root.settings
        let binance = root.binance(premium)
        async let global = Self.catching { try await binance.usdtPrices() }
        // CoinGecko's USD ranking stands in for coins Binance does not list, as in the live feed.
        async let ranking = Self.catching { try await coinGecko.ranking(currency: .usd, page: 1, perPage: RankingBoard.maxPerPage) }
        let now = root.clock.now
        // The one FX rule: the chosen source, then its stand-ins, each read once, in order.
        let plan = FXPlan(chosen: premium.fx, eximbankKey: root.eximbank(premium) != nil)
        let reader = root.fxReader(premium) { @Sendable in (try await coinGecko.krwPerUSD(), nil) }
        async let rate = FXPlan.resolve(plan.order, now: now) { await reader.read($0, now: now) }
        var problems: [String] = []
        let prices: [String: Double]
        switch await global {
        case .success(let value): prices = value
        case .failure(let error):
            prices = [:]
            problems.append("binance: " + error.message(settings.language))
        }
        let decision = await rate.decision
        for passed in decision.passedOver { problems.append("\(passed.source.rawValue): " + passed.reason(settings.language)) }
        if let fallback = decision.fallbackText(settings.language) { problems.append(fallback) }
        let fromCoinGecko = (try? await ranking.get()).map { PremiumFeed.coinGeckoQuotes($0, at: now) } ?? [:]
        let quotes = PremiumFeed.merge(prices.mapValues { GlobalQuote(price: $0, at: now, source: .binance) }, fromCoinGecko, now: now)
        return Result(inputs: PremiumInputs(global: quotes, fx: decision.quote, now: now, decision: decision), problems: problems)
    }

    /// 테더 김프 of every exchange (REST tickers side by side) against the official rate, as the
    /// one FX rule reads it.
    static func tether(_ premium: PremiumSettings, settings: Settings) async throws -> TetherPremiumTable {
        try await Root.oneShot(settings) { root in
            let exchanges = ExchangeRegistry.all.map(\.exchange)
            let quotes = TetherQuotes(boards: nil, apis: Dictionary(uniqueKeysWithValues: exchanges.map { ($0, root.api($0)) }), clock: root.clock)
            let now = root.clock.now
            let plan = FXPlan(chosen: premium.fx, eximbankKey: root.eximbank(premium) != nil)
            let reader = root.fxReader(premium, coinGecko: nil)
            async let official = FXPlan.resolve(plan.officialOrder, now: now) { await reader.read($0, now: now) }
            let rows = await quotes.quotes(exchanges)
            return TetherPremiumTable(quotes: rows, official: await official.decision, now: root.clock.now, language: settings.language)
        }
    }

    private static func catching<T: Sendable>(_ body: () async throws -> T) async -> Swift.Result<T, FeedError> {
        do { return .success(try await body()) } catch let error as FeedError { return .failure(error) } catch is CancellationError {
            // Given up on after the board's grace: it did not answer in time.
            return .failure(.timeout)
        } catch {
            return .failure(.unreachable(host: "?", reason: String(describing: error)))
        }
    }
}
