import Foundation
import SiseCore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseStore

/// The exchange keys are sealed at rest: the row, the export and every listing show the hint
/// alone; the key opens only for its owner and exchange; a new save replaces the old; removal
/// forgets it — on SQLite and PostgreSQL alike.
@Suite struct ExchangeKeyStoreTests {
    @Test func aKeyIsSealedShownByItsHintAndOpensOnlyForItsOwner() async throws {
        var engines: [(String, AppDatabase)] = [("sqlite", try AppDatabase.inMemory())]
        if let (_, postgres) = try await TestStores.freshPostgres() { engines.append(("postgres", postgres)) }
        for (name, database) in engines {
            let store = ExchangeKeyStore(database: database, clock: WallClock { 1_000 })
            let key = try #require(ExchangeKey(access: "ACCESS-abcd-WXYZ", secret: "the-very-secret-half-7777"))
            try await store.save(owner: "acct", exchange: .upbit, key: key)
            #expect(
                try await store.saved(owner: "acct") == [.init(exchange: .upbit, hint: "WXYZ", createdAt: 1_000, problem: nil, checkedAt: 0)],
                "\(name)"
            )
            #expect(try await store.key(owner: "acct", exchange: .upbit) == key, "\(name)")
            #expect(try await store.key(owner: "acct", exchange: .bithumb) == nil, "\(name)")
            #expect(try await store.saved(owner: "someone").isEmpty, "\(name)")

            // The row holds neither half in the clear; nor does the export.
            let sealed = try #require(try await database.read { db in try await db.queryOne("SELECT sealed FROM exchange_key") }?.data("sealed"))
            for half in [key.access, key.secret] {
                #expect(sealed.range(of: Data(half.utf8)) == nil, "\(name): a half in the clear")
            }
            let lines = Mutex<[String]>([])
            _ = try await StoreTransfer(database: database).export { line in lines.withLock { $0.append(line) } }
            let export = lines.withLock { $0.joined(separator: "\n") }
            #expect(export.contains("exchange_key"), "\(name): the sealed key travels with the store")
            #expect(!export.contains(key.secret) && !export.contains(key.access), "\(name): the export shows no key")

            // A sealed row moved onto another owner does not open.
            try await database.write { db in
                try await db.execute(
                    "INSERT INTO exchange_key (owner, exchange, sealed, hint, createdAt, checkedAt) VALUES ('thief', 'upbit', ?, 'WXYZ', 1, 0)",
                    sealed
                )
            }
            await #expect(throws: StoreError.self) { try await store.key(owner: "thief", exchange: .upbit) }

            // What the exchange said is noted; a new save replaces the key and clears it.
            try await store.checked(owner: "acct", exchange: .upbit, problem: .addressNotAllowed)
            #expect(try await store.saved(owner: "acct").first?.problem == .addressNotAllowed, "\(name)")
            let second = try #require(ExchangeKey(access: "another-access-1234", secret: "another-secret-5678"))
            try await store.save(owner: "acct", exchange: .upbit, key: second)
            #expect(try await store.key(owner: "acct", exchange: .upbit) == second, "\(name)")
            #expect(try await store.saved(owner: "acct").first?.problem == nil, "\(name)")
            #expect(try await store.remove(owner: "acct", exchange: .upbit), "\(name)")
            let again = try await store.remove(owner: "acct", exchange: .upbit)
            #expect(!again, "\(name)")
            #expect(try await store.key(owner: "acct", exchange: .upbit) == nil, "\(name)")
        }
    }
}
