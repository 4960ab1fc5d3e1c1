import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

@Suite struct PortfolioStoreTests {
    let btc = MarketID("KRW-BTC")!

    func tx(_ id: String, _ kind: TransactionKind, _ quantity: String, at: Int64) -> PortfolioTransaction {
        PortfolioTransaction(id: id, kind: kind, exchange: .upbit, market: btc, quantity: Decimal(string: quantity)!, price: 100_000_000, at: at)
    }

    @Test func keepsDecimalsExactlyAndRefusesWhatDoesNotAddUp() async throws {
        for (_, database) in try await TestStores.all() { try await keepsDecimalsExactly(database) }
    }

    func keepsDecimalsExactly(_ database: AppDatabase) async throws {
        let store = PortfolioStore(database: database)
        try await store.add(owner: "a", [tx("1", .buy, "0.123456789012", at: 1)])
        // Selling more than was held at that time is refused, and nothing of the batch stays.
        await #expect(throws: StoreError.ledger(.moreThanHeld(id: "3", exchange: .upbit, market: btc))) {
            try await store.add(owner: "a", [tx("2", .buy, "1", at: 5), tx("3", .sell, "0.2", at: 2)])
        }
        #expect(try await store.transactions(owner: "a").map(\.id) == ["1"])
        try await store.add(owner: "a", [tx("4", .sell, "0.1", at: 3)])
        // Deleting the buy would leave the later sell selling what was never held.
        await #expect(throws: StoreError.self) { try await store.remove(owner: "a", id: "1") }
        #expect(try await store.remove(owner: "a", id: "4"))
        #expect(try await store.remove(owner: "a", id: "4") == false)
        // Read back from the database: the very same decimals; other owners see nothing.
        let reopened = PortfolioStore(database: database)
        #expect(try await reopened.transactions(owner: "a").first?.quantity == Decimal(string: "0.123456789012"))
        #expect(try await reopened.transactions(owner: "b").isEmpty)
        let limited = PortfolioStore(database: database, limit: 2)
        await #expect(throws: StoreError.tooManyRecords(limit: 2)) {
            try await limited.add(owner: "a", [tx("5", .buy, "1", at: 9), tx("6", .buy, "1", at: 10)])
        }
    }
}
