import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

/// The history of changes in both engines: a baseline records nothing, a change records one event
/// however many replicas see it, an older look never moves a value back, and each horizon's
/// price is written once.
@Suite struct MarketEventStoreTests {
    static let at: Int64 = 1_800_000_000_000
    static let xrpDeposit = MarketAspect(exchange: .upbit, symbol: "XRP", aspect: .deposit, scope: "XRP")

    static func look(_ store: MarketEventStore, deposit: Bool, at: Int64) async throws -> [MarketEvent] {
        let observation = MarketEventRule.Observation(
            exchange: .upbit,
            wallets: [WalletStatus(exchange: .upbit, currency: "XRP", network: "XRP", deposit: deposit, withdraw: true)]
        )
        let outcome = MarketEventRule.changes(stored: try await store.states(.upbit), observation: observation)
        return try await store.apply(outcome.changes, at: at, prices: ["XRP": 1_000])
    }

    @Test func oneEventPerChangeHoweverManyReplicasSeeIt() async throws {
        for (name, database) in try await TestStores.all() {
            let replicas = (0..<3).map { _ in MarketEventStore(database: database) }
            #expect(try await Self.look(replicas[0], deposit: true, at: Self.at).isEmpty, "\(name): a baseline records nothing")
            // Three replicas read the state before any writes it, then all write the same change.
            let stored = try await replicas[0].states(.upbit)
            let observation = MarketEventRule.Observation(
                exchange: .upbit,
                wallets: [WalletStatus(exchange: .upbit, currency: "XRP", network: "XRP", deposit: false, withdraw: true)]
            )
            let changes = MarketEventRule.changes(stored: stored, observation: observation).changes
            let recorded = try await withThrowingTaskGroup(of: [MarketEvent].self) { group in
                for (index, replica) in replicas.enumerated() {
                    group.addTask { try await replica.apply(changes, at: Self.at + 60_000 + Int64(index), prices: ["XRP": 1_000]) }
                }
                var all: [MarketEvent] = []
                for try await events in group { all += events }
                return all
            }
            #expect(recorded.count == 1 && recorded.first?.kind == .depositSuspended, "\(name): \(recorded)")
            let history = try await replicas[1].events(limit: 10)
            #expect(history.map(\.kind) == [.depositSuspended] && history.first?.price == 1_000, "\(name): \(history)")
            #expect(history.first?.scope == "XRP" && history.first?.exchange == .upbit)
        }
    }

    @Test func anOlderLookNeverMovesTheValueBack() async throws {
        for (name, database) in try await TestStores.all() {
            let store = MarketEventStore(database: database)
            _ = try await Self.look(store, deposit: true, at: Self.at)
            #expect(try await Self.look(store, deposit: false, at: Self.at + 120_000).count == 1, "\(name)")
            // A replica whose wallet answer is older than the stored one still says "open".
            #expect(try await Self.look(store, deposit: true, at: Self.at + 60_000).isEmpty, "\(name): an older look is ignored")
            #expect(try await store.states(.upbit)[Self.xrpDeposit] == "0", "\(name)")
            // A newer one reopens it.
            #expect(try await Self.look(store, deposit: true, at: Self.at + 180_000).map(\.kind) == [.depositReopened], "\(name)")
            let page = try await store.events(limit: 1)
            #expect(page.map(\.kind) == [.depositReopened])
            let older = try await store.events(before: page[0].id, limit: 10)
            #expect(older.map(\.kind) == [.depositSuspended], "\(name): the next page")
            #expect(try await store.events(symbol: "BTC", limit: 10).isEmpty)
            #expect(try await store.events(kinds: [.depositReopened], limit: 10).count == 1)
        }
    }

    @Test func eachHorizonsPriceIsWrittenOnceWhenDue() async throws {
        for (name, database) in try await TestStores.all() {
            let store = MarketEventStore(database: database)
            _ = try await Self.look(store, deposit: true, at: Self.at)
            let event = try #require(try await Self.look(store, deposit: false, at: Self.at + 1).first)
            #expect(try await store.due(now: Self.at + 1_000).isEmpty, "\(name): nothing due yet")
            let due = try await store.due(now: Self.at + 1 + 3_600_000)
            #expect(due.map(\.horizon) == [.hour], "\(name)")
            #expect(try await store.setLater(event.id, .hour, price: 1_100))
            #expect(try await !store.setLater(event.id, .hour, price: 1_200), "\(name): written once")
            #expect(try await store.due(now: Self.at + 1 + 3_600_000).isEmpty)
            // Too late to read the day's price (the server was down): it stays unrecorded.
            #expect(try await store.due(now: Self.at + 1 + 86_400_000 + 7_200_001).isEmpty, "\(name)")
            let kept = try await store.events(limit: 1)[0]
            #expect(kept.later == [.hour: 1_100] && kept.change(.hour).map { abs($0 - 10) < 1e-9 } == true)
            #expect(kept.state(.day, now: Self.at + 1 + 86_400_000 + 7_200_001) == .missed)
        }
    }
}
