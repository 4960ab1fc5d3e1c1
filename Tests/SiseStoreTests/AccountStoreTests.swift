import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

/// Accounts and sessions in a real SQLite file and a real PostgreSQL database: uniqueness,
/// sliding expiry on an injected clock, the favorites merge, deletion of everything an account owns.
@Suite struct AccountStoreTests {
    @Test func sessionsSlideAndExpire() async throws {
        for (_, database) in try await TestStores.all() { try await sessionsSlideAndExpire(database) }
    }

    func sessionsSlideAndExpire(_ database: AppDatabase) async throws {
        let accounts = AccountStore(database: database)
        let account = try await accounts.create(email: "a@b.kr", username: nil, nickname: "에이", passwordHash: "h", at: 0)
        await #expect(throws: StoreError.taken) {
            _ = try await accounts.create(email: "a@b.kr", username: "other", nickname: "비", passwordHash: "h", at: 0)
        }
        try await accounts.createSession(tokenHash: "t1", account: account.id, at: 0, expiresAt: 1_000)
        #expect(try await accounts.session(tokenHash: "t1", at: 900, extendTo: 1_900)?.id == account.id)
        #expect(try await accounts.session(tokenHash: "t1", at: 1_500, extendTo: 2_500)?.id == account.id, "the expiry slid")
        #expect(try await accounts.session(tokenHash: "t1", at: 2_600, extendTo: 3_600) == nil, "expired")
        #expect(try await accounts.session(tokenHash: "t1", at: 0, extendTo: 1) == nil, "and gone")
    }

    @Test func favoritesMergeAndLeaveWithTheAccount() async throws {
        for (_, database) in try await TestStores.all() { try await favoritesMergeAndLeaveWithTheAccount(database) }
    }

    func favoritesMergeAndLeaveWithTheAccount(_ database: AppDatabase) async throws {
        let accounts = AccountStore(database: database)
        let favorites = StoredFavorites(database: database)
        let account = try await accounts.create(email: nil, username: "hana", nickname: "하나", passwordHash: "h", at: 0)
        try await favorites.add(owner: account.owner, item: "KRW-BTC")
        try await favorites.add(owner: "device1", item: "KRW-BTC")
        try await favorites.add(owner: "device1", item: "korbit:KRW-ETH")
        try await accounts.mergeFavorites(from: "device1", into: account.owner, at: 1)
        #expect(Set(try await favorites.list(owner: account.owner)) == ["KRW-BTC", "korbit:KRW-ETH"], "the union, no duplicate")
        #expect(try await favorites.list(owner: account.owner).count == 2)
        try await accounts.createSession(tokenHash: "t", account: account.id, at: 0, expiresAt: 10)
        try await accounts.delete(account.id)
        #expect(try await favorites.list(owner: account.owner).isEmpty)
        #expect(try await accounts.account(login: "hana") == nil)
        #expect(try await accounts.session(tokenHash: "t", at: 1, extendTo: 2) == nil)
        #expect(try await favorites.list(owner: "device1").count == 2, "the device keeps its own")
    }
}

@Suite struct AccountRulesTests {
    @Test func rulesAndMasking() throws {
        #expect(try AccountRules.email(" Minsu@Example.KR ") == "minsu@example.kr")
        for bad in ["nope", "a@b", "@b.kr", "a@.kr", "a b@c.kr", "<a>@b.kr"] {
            #expect(throws: AccountRules.Problem.email) { try AccountRules.email(bad) }
        }
        #expect(throws: AccountRules.Problem.passwordCommon) { try AccountRules.password("Password123") }
        #expect(throws: AccountRules.Problem.passwordLength) { try AccountRules.password("short") }
        #expect(throws: AccountRules.Problem.passwordLength) { try AccountRules.password(String(repeating: "가", count: 50)) }
        #expect(try AccountRules.nickname(" 민수 ") == "민수")
        #expect(try AccountRules.nickname("민") == "민", "one Hangul syllable is two columns")
        #expect(throws: AccountRules.Problem.nickname) { try AccountRules.nickname("x") }
        #expect(throws: AccountRules.Problem.nickname) { try AccountRules.nickname(String(repeating: "가", count: 11)) }
        #expect(AccountRules.masked("minsu@example.kr") == "m***@example.kr")
    }
}
