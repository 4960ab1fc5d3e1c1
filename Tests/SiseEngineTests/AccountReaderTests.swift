import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// A person's Upbit and Bithumb accounts read with their keys against the simulator's verifier
/// (each exchange's signing checked as it checks it), valued at each exchange's own prices; and
/// every way an exchange refuses a key, in its own words, sorted by what the person must fix.
@Suite(.serialized) struct AccountReaderTests {
    static let v1 = [Exchange.upbit, .bithumb]

    static func client(
        _ simulator: RunningSimulator,
        _ exchange: Exchange,
        _ key: ExchangeKey,
        clock: WallClock = .system,
        nonce: String? = nil
    )
        -> any AccountSource
    {
        let endpoint = ExchangeRegistry.spec(exchange).simulated(at: simulator.baseURL)
        if let nonce {
            return V1AccountClient(
                exchange: exchange,
                baseURL: endpoint.rest,
                key: key,
                transport: LiveHTTPTransport(),
                clock: clock,
                nonce: { nonce }
            )
        }
        return V1AccountClient(exchange: exchange, baseURL: endpoint.rest, key: key, transport: LiveHTTPTransport(), clock: clock)
    }

    static func demoKey(_ exchange: Exchange) throws -> ExchangeKey {
        try #require(ExchangeKey(access: SimulatedAccountKey.access(exchange), secret: SimulatedAccountKey.secret(exchange)))
    }

    @Test func theDemoAccountsAreReadAndValuedAtEachExchangesOwnPrice() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let apis = Dictionary(
                uniqueKeysWithValues: Self.v1.map {
                    ($0, ExchangeRegistry.spec($0).api(ExchangeRegistry.spec($0).simulated(at: simulator.baseURL), transport: transport))
                }
            )
            let reader = AccountReader(
                sources: try Self.v1.map { Self.client(simulator, $0, try Self.demoKey($0)) },
                prices: { exchange, markets in
                    let listed = Set(try await apis[exchange]!.markets().map(\.id))
                    let tickers = try await apis[exchange]!.tickers(markets: markets.filter(listed.contains))
                    return Dictionary(uniqueKeysWithValues: tickers.map { ($0.market, Decimal(string: "\($0.price)")!) })
                }
            )
            let holdings = await reader.read()
            #expect(holdings.sources.map(\.state) == [.live, .live], "\(holdings.sources)")
            for exchange in Self.v1 {
                let rows = holdings.holdings.filter { $0.exchange == exchange }
                let cash = try #require(rows.first { $0.currency == "KRW" })
                #expect(cash.quantity == Decimal(string: "1300000.5") && cash.averageBuyPrice == nil, "cash is not a cost")
                let drop = try #require(rows.first { $0.currency == "SISEDROP" }, "a coin with no market is shown, not dropped")
                #expect(drop.price == nil && drop.value == nil && drop.market == nil && drop.quantity == 42)
                let coins = rows.filter { $0.price != nil }
                #expect(coins.count == 4, "\(exchange): \(rows.map(\.currency))")
                for coin in coins {
                    let price = try #require(coin.price)
                    var exact = price * coin.quantity
                    var rounded = Decimal()
                    NSDecimalRound(&rounded, &exact, 0, .plain)
                    #expect(coin.value == rounded, "\(exchange) \(coin.currency): valued at its own price")
                    #expect(coin.profit == rounded - (coin.averageBuyPrice ?? 0) * coin.quantity)
                }
                #expect(coins.contains { $0.averageModified }, "Upbit's edited average is marked")
                #expect(coins.contains { $0.locked > 0 && $0.quantity == 1.75 }, "locked counts in the holding")
            }
            let values = holdings.holdings.compactMap(\.value)
            #expect(holdings.totalValue == values.reduce(0, +))
            #expect(holdings.cash == Decimal(string: "2600001"))
        }
    }

    /// A key the simulator knows, with the switches a test turns.
    static func register(_ simulator: RunningSimulator, _ exchange: Exchange, _ access: String, _ extra: String = "") async throws -> ExchangeKey {
        let secret = "secret-of-\(access)-0123456789"
        try await SimAdmin.post(
            simulator,
            "/_sim/accounts",
            #"{"exchange":"\#(exchange.rawValue)","access":"\#(access)","secret":"\#(secret)"\#(extra)}"#
        )
        return try #require(ExchangeKey(access: access, secret: secret))
    }

    @Test func everyRefusalIsTheExchangesOwnAndSaysWhatToFix() async throws {
        try await withSimulator { simulator in
            for exchange in Self.v1 {
                func refusal(_ source: any AccountSource) async -> FeedError? {
                    do {
                        _ = try await source.balances()
                        return nil
                    } catch { return error as? FeedError }
                }
                let unknown = try #require(ExchangeKey(access: "nobody-\(exchange.rawValue)", secret: "whatever-secret-123"))
                let demo = try Self.demoKey(exchange)
                let wrongSecret = try #require(ExchangeKey(access: demo.access, secret: "not-the-secret-0000"))
                let elsewhere = try await Self.register(simulator, exchange, "elsewhere-\(exchange.rawValue)", #","addresses":["10.9.8.7"]"#)
                let narrow = try await Self.register(simulator, exchange, "narrow-\(exchange.rawValue)", #","scopes":["orders"]"#)
                let old = try await Self.register(simulator, exchange, "old-\(exchange.rawValue)", #","expiresAt":1000"#)
                let rows: [(String, any AccountSource, String, KeyProblem)] = [
                    ("unknown key", Self.client(simulator, exchange, unknown), "invalid_access_key", .invalidKey),
                    ("wrong secret", Self.client(simulator, exchange, wrongSecret), "jwt_verification", .invalidKey),
                    (
                        "address", Self.client(simulator, exchange, elsewhere), exchange == .bithumb ? "NotAllowIP" : "no_authorization_i_p",
                        .addressNotAllowed
                    ),
                    ("scope", Self.client(simulator, exchange, narrow), "out_of_scope", .missingPermission),
                    ("expired", Self.client(simulator, exchange, old), "expired_access_key", .expiredKey),
                ]
                for (what, source, name, problem) in rows {
                    let error = await refusal(source)
                    guard case .unauthorized(let got, _)? = error else {
                        Issue.record("\(exchange) \(what): \(String(describing: error))")
                        continue
                    }
                    #expect(got == name, "\(exchange) \(what)")
                    #expect(error?.keyProblem == problem, "\(exchange) \(what)")
                    let words = problem.message(.ko, exchange: exchange)
                    #expect(!words.contains(demo.secret) && !words.contains("_"), "\(exchange) \(what): \(words)")
                }
                // A nonce used once is refused the second time (the client makes a fresh one each call).
                let fixed = Self.client(simulator, exchange, demo, nonce: "a-nonce-\(exchange.rawValue)")
                let first = await refusal(fixed)
                let replay = await refusal(fixed)
                #expect(first == nil)
                #expect(replay?.keyProblem == .nonceReused, "\(exchange): a replay")
                let fresh = Self.client(simulator, exchange, demo)
                let (one, two) = (await refusal(fresh), await refusal(fresh))
                #expect(one == nil && two == nil, "\(exchange): fresh nonces every call")
            }
            // Bithumb's token carries the time: one a minute old is refused.
            let late = Self.client(simulator, .bithumb, try Self.demoKey(.bithumb), clock: WallClock { WallClock.system.now - 60_000 })
            do {
                _ = try await late.balances()
                Issue.record("a token a minute old was accepted")
            } catch let error as FeedError {
                #expect(error == .unauthorized(name: "expired_jwt", message: "JWT 토큰이 만료되었습니다.") && error.keyProblem == .clock)
            }
        }
    }
}
