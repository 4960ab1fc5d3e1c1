import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore
import SiseTestSupport
import Testing

/// An Upbit and a Bithumb account's closed orders kept as portfolio transactions, against the
/// simulator's verifier of signed calls (the query's hash covers the window asked for): every
/// order once, windows of seven days walked forward, a full page read again from its newest
/// order, an older answer without `executed_funds` completed from each order's trades, a re-sync
/// adding nothing, and the calls within the key's 30 a second (the simulator refuses past it).
@Suite(.serialized) struct AccountHistorySyncTests {
    static let day: Int64 = 86_400_000

    static func key(_ simulator: RunningSimulator, _ exchange: Exchange, _ access: String, history: String) async throws -> any AccountHistorySource {
        let key = try await AccountReaderTests.register(simulator, exchange, access, #","history":\#(history)"#)
        let source = ExchangeRegistry.spec(exchange).account(
            ExchangeRegistry.spec(exchange).simulated(at: simulator.baseURL),
            transport: LiveHTTPTransport(),
            key: key
        )
        return try #require(source as? any AccountHistorySource)
    }

    static func store() throws -> (AppDatabase, PortfolioStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-sync-\(UUID().uuidString)")
        let database = try AppDatabase.open(directory: directory)
        return (database, PortfolioStore(database: database), directory)
    }

    static func refusals(_ simulator: RunningSimulator) async throws -> [String: Int] {
        let answer = try await LiveHTTPTransport().get(simulator.baseURL.appendingPathComponent("_sim/accounts"), headers: [])
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return object?["refusals"] as? [String: Int] ?? [:]
    }

    @Test func aYearOfOrdersIsKeptOnceAndASecondSyncAddsNothing() async throws {
        try await withSimulator { simulator in
            let source = try await Self.key(simulator, .upbit, "history-upbit", history: #"{"orders":3000,"days":400,"seed":11}"#)
            let (database, portfolio, directory) = try Self.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            let sync = AccountHistorySync(portfolio: portfolio)
            let since = WallClock.system.now - 401 * Self.day
            let first = try await sync.sync(owner: "o", source: source, since: since)
            #expect(first.orders == 3_000 && first.added == 3_000 && first.kept == 0, "\(first)")
            // 58 windows of seven days, one call each: no window of this history fills a page.
            #expect((58...60).contains(first.calls), "\(first.calls) calls")
            let kept = try await portfolio.transactions(owner: "o")
            #expect(kept.count == 3_000 && Set(kept.map(\.id)).count == 3_000)
            #expect(kept.allSatisfy { $0.id.hasPrefix("upbit-order-") && $0.exchange == .upbit && $0.quantity > 0 && $0.price > 0 })
            // The history's sells never exceed its buys: the ledger reads it whole.
            #expect(throws: Never.self) { _ = try PortfolioLedger.positions(kept) }

            // Again, resumed after the newest trade kept: only that instant is read again.
            let again = try await sync.sync(owner: "o", source: source, since: since)
            #expect(again.added == 0 && again.calls <= 2, "\(again)")
            // And the whole span again: every order seen, none added twice.
            let full = try await sync.sync(owner: "o", source: source, since: since, resume: false)
            #expect(full.added == 0 && full.kept == 3_000, "\(full)")
            #expect(try await portfolio.transactions(owner: "o").count == 3_000)
            // Within the key's budget: the simulator never had to refuse a call.
            #expect(try await Self.refusals(simulator)["too_many_requests"] == nil)
            await database.close()
        }
    }

    @Test func aFullPageIsReadAgainFromItsNewestOrder() async throws {
        try await withSimulator { simulator in
            // 2,500 orders in ten days: a week holds more than Upbit's page of 1,000.
            let source = try await Self.key(simulator, .upbit, "dense-upbit", history: #"{"orders":2500,"days":10,"seed":5}"#)
            let (database, portfolio, directory) = try Self.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            let outcome = try await AccountHistorySync(portfolio: portfolio).sync(
                owner: "o",
                source: source,
                since: WallClock.system.now - 11 * Self.day
            )
            #expect(outcome.orders == 2_500 && outcome.added == 2_500, "\(outcome)")
            #expect(outcome.calls >= 3, "a full window is read again: \(outcome.calls) calls")
            await database.close()
        }
    }

    @Test func anAnswerWithoutFundsIsCompletedFromEachOrdersTradesOnBithumbToo() async throws {
        try await withSimulator { simulator in
            let (database, portfolio, directory) = try Self.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            let sync = AccountHistorySync(portfolio: portfolio)
            let since = WallClock.system.now - 31 * Self.day
            let with = try await Self.key(simulator, .bithumb, "funds-bithumb", history: #"{"orders":40,"days":30,"seed":3}"#)
            let without = try await Self.key(simulator, .bithumb, "trades-bithumb", history: #"{"orders":40,"days":30,"seed":3,"omitFunds":true}"#)
            let one = try await sync.sync(owner: "with", source: with, since: since)
            let other = try await sync.sync(owner: "without", source: without, since: since)
            #expect(one.added == 40 && other.added == 40)
            #expect(other.calls >= one.calls + 40, "one call for each order's trades: \(other.calls) vs \(one.calls)")
            let a = try await portfolio.transactions(owner: "with").map { [$0.market.code, "\($0.quantity)", "\($0.price)", "\($0.fee)"] }
            let b = try await portfolio.transactions(owner: "without").map { [$0.market.code, "\($0.quantity)", "\($0.price)", "\($0.fee)"] }
            #expect(a == b, "the same trades at the same prices")
            await database.close()
        }
    }

    @Test func aKeyWithoutTheOrdersPermissionSaysWhatToFix() async throws {
        try await withSimulator { simulator in
            let key = try await AccountReaderTests.register(
                simulator,
                .upbit,
                "balances-only",
                #","scopes":["balances"],"history":{"orders":10,"days":5}"#
            )
            let source = try #require(
                ExchangeRegistry.spec(.upbit).account(
                    ExchangeRegistry.spec(.upbit).simulated(at: simulator.baseURL),
                    transport: LiveHTTPTransport(),
                    key: key
                )
                    as? any AccountHistorySource
            )
            let (database, portfolio, directory) = try Self.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            do {
                _ = try await AccountHistorySync(portfolio: portfolio).sync(owner: "o", source: source, since: WallClock.system.now - 6 * Self.day)
                Issue.record("a key without 주문조회 read the history")
            } catch let error as FeedError {
                #expect(error.keyProblem == .missingPermission)
            }
            #expect(try await portfolio.transactions(owner: "o").isEmpty)
            await database.close()
        }
    }

    /// A scheduled round syncs every owner with a kept key, one after another, and leaves out a
    /// key the exchange refused for a reason the person must fix.
    @Test func aScheduledRoundSyncsEveryOwnerButAKeyWaitingOnItsPerson() async throws {
        try await withSimulator { simulator in
            let (database, portfolio, directory) = try Self.store()
            defer { try? FileManager.default.removeItem(at: directory) }
            let desk = AccountDesk(
                keys: ExchangeKeyStore(database: database),
                sources: { exchange, key in
                    ExchangeRegistry.spec(exchange).account(
                        ExchangeRegistry.spec(exchange).simulated(at: simulator.baseURL),
                        transport: LiveHTTPTransport(),
                        key: key
                    )
                },
                prices: { _, _ in [:] }
            )
            let jobs = AccountSyncJobs(desk: desk, sync: AccountHistorySync(portfolio: portfolio))
            _ = try await desk.connect(owner: "a", exchange: .upbit, key: try AccountReaderTests.demoKey(.upbit), language: .ko)
            let narrow = try await AccountReaderTests.register(
                simulator,
                .upbit,
                "round-narrow",
                #","scopes":["balances"],"history":{"orders":5,"days":3}"#
            )
            _ = try await desk.connect(owner: "b", exchange: .upbit, key: narrow, language: .ko)
            try await desk.keys.checked(owner: "b", exchange: .upbit, problem: .missingPermission)
            #expect(try await jobs.scheduledRound() == 1)
            #expect(try await portfolio.transactions(owner: "a").count == 120, "the demo account's 120 orders")
            #expect(try await portfolio.transactions(owner: "b").isEmpty)
            #expect(await jobs.status(owner: "a").state == .done)
            #expect(try await jobs.scheduledRound() == 1)
            #expect(try await portfolio.transactions(owner: "a").count == 120, "a second round adds nothing")
            await database.close()
        }
    }
}
