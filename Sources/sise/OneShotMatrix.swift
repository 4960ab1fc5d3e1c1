import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise premium --matrix`: every Korean exchange's KRW board and every global venue's USDT
/// prices read side by side once, at the rate the one FX rule decides. An exchange or venue that
/// fails leaves its cells empty and says why; it never fails the command.
enum OneShotMatrix {
    static func table(
        _ premium: PremiumSettings,
        query: PremiumMatrixQuery,
        settings: Settings,
        coinGecko options: CoinGeckoOptions
    ) async throws -> (table: PremiumMatrixTable, problems: [String]) {
        let language = settings.language
        return try await Root.oneShot(settings) { root in
            let now = root.clock.now
            let coinGecko = try root.coinGecko(options)
            let plan = FXPlan(chosen: premium.fx, eximbankKey: root.eximbank(premium) != nil)
            let reader = root.fxReader(premium) { @Sendable in (try await coinGecko.krwPerUSD(), nil) }
            async let rate = FXPlan.resolve(plan.order, now: now) { await reader.read($0, now: now) }
            async let boards = Self.boards(query.exchanges, root: root)
            async let venues = Self.venues(query.venues, apis: root.globalAPIs(premium), now: now)
            let (loaded, quoted, decision) = await (boards, venues, rate.decision)
            var problems: [String] = []
            var korean: [Exchange: [String: PremiumMatrix.Leg]] = [:]
            var names: [String: String] = [:]
            for exchange in Exchange.byShare {
                switch loaded[exchange] {
                case .success(let rows)?:
                    var legs: [String: PremiumMatrix.Leg] = [:]
                    for row in rows where row.id.quote == "KRW" {
                        legs[row.id.base] = PremiumMatrix.Leg(price: row.ticker.price, at: now, tradeValue24h: row.ticker.tradeValue24h)
                        if names[row.id.base] == nil { names[row.id.base] = row.market.name(in: language) }
                    }
                    korean[exchange] = legs
                case .failure(let error)?: problems.append(exchange.rawValue + ": " + error.message(language))
                case nil: break
                }
            }
            var states: [GlobalVenue: (state: String, at: Int64?, problem: Words?)] = [:]
            var prices: [GlobalVenue: [String: VenueQuote]] = [:]
            for venue in query.venues {
                switch quoted[venue] {
                case .success(let quotes)?:
                    prices[venue] = quotes
                    states[venue] = ("live", now, nil)
                case .failure(let error)?:
                    states[venue] = ("failing", nil, Words(error.message))
                    problems.append(venue.rawValue + ": " + error.message(language))
                case nil: break
                }
            }
            for passed in decision.passedOver { problems.append("\(passed.source.rawValue): " + passed.reason(language)) }
            let rows = PremiumMatrix.rows(korean: korean, venues: prices, fx: decision.quote, now: root.clock.now)
            let table = PremiumMatrixTable(rows: rows, query: query, decision: decision, venueStates: states, names: names, language: language)
            return (table, problems)
        }
    }

    private static func boards(_ exchanges: [Exchange], root: Root) async -> [Exchange: Result<[MarketRow], FeedError>] {
        await withTaskGroup(of: (Exchange, Result<[MarketRow], FeedError>).self) { group in
            for exchange in exchanges {
                let api = root.api(exchange)
                group.addTask { (exchange, await Self.catching { try await BoardLoader(api: api, exchange: exchange).load(quote: .krw) }) }
            }
            var out: [Exchange: Result<[MarketRow], FeedError>] = [:]
            for await (exchange, result) in group { out[exchange] = result }
            return out
        }
    }

    private static func venues(
        _ venues: [GlobalVenue],
        apis: [GlobalVenue: any GlobalPriceAPI],
        now: Int64
    ) async -> [GlobalVenue: Result<[String: VenueQuote], FeedError>] {
        await withTaskGroup(of: (GlobalVenue, Result<[String: VenueQuote], FeedError>).self) { group in
            for venue in venues {
                guard let api = apis[venue] else { continue }
                group.addTask { (venue, await Self.catching { try await api.usdtQuotes(now: now) }) }
            }
            var out: [GlobalVenue: Result<[String: VenueQuote], FeedError>] = [:]
            for await (venue, result) in group { out[venue] = result }
            return out
        }
    }

    private static func catching<T: Sendable>(_ body: () async throws -> T) async -> Result<T, FeedError> {
        do { return .success(try await body()) } catch let error as FeedError { return .failure(error) } catch {
            return .failure(.unreachable(host: "?", reason: String(describing: error)))
        }
    }
}
