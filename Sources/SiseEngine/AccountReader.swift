import Foundation
import SiseCore
import SiseFeeds

/// Reads a person's exchange accounts with their keys, every exchange at once, and values what
/// they hold at each exchange's own KRW prices: one exchange refusing its key or failing never
/// hides another's holdings — its row says why, in the person's language.
public struct AccountReader: Sendable {
    /// An exchange's KRW prices of the markets asked for that it lists (an unlisted coin is left out).
    public typealias Prices = @Sendable (Exchange, [MarketID]) async throws -> [MarketID: Decimal]

    private let sources: [any AccountSource]
    private let prices: Prices
    private let clock: WallClock
    private let language: Language

    public init(sources: [any AccountSource], prices: @escaping Prices, clock: WallClock = .system, language: Language = .ko) {
        self.sources = sources
        self.prices = prices
        self.clock = clock
        self.language = language
    }

    public func read() async -> AccountHoldings {
        let language = language
        let clock = clock
        let prices = prices
        let read = await withTaskGroup(of: (AccountHoldings.Source, [AccountBalance], [MarketID: Decimal]).self) { group in
            for source in sources {
                group.addTask {
                    let exchange = source.exchange
                    do {
                        let balances = try await source.balances()
                        let fetchedAt = clock.now
                        let wanted = balances.filter { !$0.isCash && $0.total > 0 }.compactMap { MarketID("KRW-" + $0.currency) }
                        var quoted: [MarketID: Decimal] = [:]
                        var state = AccountHoldings.Source(exchange: exchange, state: .live, fetchedAt: fetchedAt)
                        do { quoted = wanted.isEmpty ? [:] : try await prices(exchange, wanted) } catch {
                            // Held, but not valued: the balances stand, the prices are said to be missing.
                            state.message = (error as? FeedError)?.message(language)
                        }
                        return (state, balances, quoted)
                    } catch let error as FeedError {
                        if let problem = error.keyProblem {
                            let source = AccountHoldings.Source(
                                exchange: exchange,
                                state: .refused,
                                problem: problem,
                                message: problem.message(language, exchange: exchange)
                            )
                            return (source, [], [:])
                        }
                        return (AccountHoldings.Source(exchange: exchange, state: .failing, message: error.message(language)), [], [:])
                    } catch {
                        let failure = FeedError.unreachable(host: exchange.displayName, reason: String(describing: type(of: error)))
                        return (AccountHoldings.Source(exchange: exchange, state: .failing, message: failure.message(language)), [], [:])
                    }
                }
            }
            var all: [(AccountHoldings.Source, [AccountBalance], [MarketID: Decimal])] = []
            for await one in group { all.append(one) }
            return all
        }
        let ordered = read.sorted { $0.0.exchange.listOrder < $1.0.exchange.listOrder }
        let quotes = Dictionary(ordered.map { ($0.0.exchange, $0.2) }, uniquingKeysWith: { first, _ in first })
        return AccountHoldings(sources: ordered.map(\.0), balances: ordered.flatMap(\.1)) { exchange, market in quotes[exchange]?[market] }
    }
}
