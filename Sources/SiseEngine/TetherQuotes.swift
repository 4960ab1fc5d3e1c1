import Foundation
import SiseCore
import SiseFeeds

/// Every Korean exchange's KRW-USDT for 테더 김프: from the exchange's live board while its row is
/// fresh (someone watches that board), else one REST ticker per exchange at most every
/// `restInterval` however many ask (concurrent askers share the call). An exchange that lists no
/// KRW-USDT says so.
public actor TetherQuotes {
    public static let usdt = MarketID(quote: "KRW", base: "USDT")

    private let boards: ExchangeBoards?
    private let apis: [Exchange: any ExchangeAPI]
    private let clock: WallClock
    private let restInterval: Int64
    private var held: [Exchange: (quote: USDTQuote, readAt: Int64)] = [:]
    private var reading: [Exchange: Task<USDTQuote, Never>] = [:]

    /// - Parameters:
    ///   - boards: the live boards to read first (nil: REST only, as one-shot commands read).
    ///   - restInterval: how long a REST reading serves every asker (ms).
    public init(boards: ExchangeBoards?, apis: [Exchange: any ExchangeAPI], clock: WallClock, restInterval: Int64 = 5_000) {
        self.boards = boards
        self.apis = apis
        self.clock = clock
        self.restInterval = restInterval
    }

    /// The quotes of `exchanges`, in their order, read side by side.
    public func quotes(_ exchanges: [Exchange]) async -> [USDTQuote] {
        var tasks: [Task<USDTQuote, Never>] = []
        for exchange in exchanges { tasks.append(task(exchange)) }
        var out: [USDTQuote] = []
        for task in tasks { out.append(await task.value) }
        return out
    }

    private func task(_ exchange: Exchange) -> Task<USDTQuote, Never> {
        let now = clock.now
        if let live = liveQuote(exchange, now: now) { return Task { live } }
        if let kept = held[exchange], now - kept.readAt < restInterval { return Task { kept.quote } }
        if let running = reading[exchange] { return running }
        let api = apis[exchange]
        let task = Task { await Self.read(exchange, api: api, now: now) }
        reading[exchange] = task
        Task {
            let quote = await task.value
            self.finish(exchange, quote, at: now)
        }
        return task
    }

    private func finish(_ exchange: Exchange, _ quote: USDTQuote, at: Int64) {
        held[exchange] = (quote, at)
        reading[exchange] = nil
    }

    /// The board's row while it is fresh.
    private func liveQuote(_ exchange: Exchange, now: Int64) -> USDTQuote? {
        guard let board = boards?[exchange] else { return nil }
        let snapshot = board.snapshot
        guard let row = snapshot.rows[Self.usdt], let at = snapshot.confirmedAt(Self.usdt), now - at <= TetherPremium.bound / 2 else { return nil }
        return USDTQuote(exchange: exchange, price: row.ticker.price, at: at)
    }

    /// One REST ticker: the price, unlisted (no such market), or why not.
    static func read(_ exchange: Exchange, api: (any ExchangeAPI)?, now: Int64) async -> USDTQuote {
        guard let api else { return .unlisted(exchange) }
        do {
            guard let ticker = try await api.tickers(markets: [usdt]).first(where: { $0.market == usdt }) else { return .unlisted(exchange) }
            guard ticker.price.isFinite, ticker.price > 0 else {
                return USDTQuote(
                    exchange: exchange,
                    price: nil,
                    at: nil,
                    problem: Words(FeedError.malformedPayload(context: "KRW-USDT price").message)
                )
            }
            return USDTQuote(exchange: exchange, price: ticker.price, at: now)
        } catch FeedError.notFound {
            return .unlisted(exchange)
        } catch let error as FeedError {
            return USDTQuote(exchange: exchange, price: nil, at: nil, problem: Words(error.message))
        } catch {
            let text = String(describing: error)
            return USDTQuote(exchange: exchange, price: nil, at: nil, problem: Words(ko: text, en: text))
        }
    }
}
