import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

/// Favorites in a real SQLite file and a real PostgreSQL database, and the in-memory double
/// behaving the same.
@Suite struct FavoritesStoreTests {
    static func repositories() async throws -> [(String, any FavoritesRepository)] {
        try await TestStores.all().map { ($0.name, StoredFavorites(database: $0.database)) } + [("memory", InMemoryFavorites())]
    }

    @Test func addListRemoveClearPerOwner() async throws {
        for (name, repository) in try await Self.repositories() {
            #expect(try await repository.add(owner: "a", item: "krw-btc"), "\(name)")
            #expect(try await !repository.add(owner: "a", item: "KRW-BTC"), "\(name): no duplicates")
            _ = try await repository.add(owner: "a", item: "bitcoin")
            _ = try await repository.add(owner: "b", item: "KRW-ETH")
            #expect(try await repository.list(owner: "a") == ["KRW-BTC", "bitcoin"], "\(name): insertion order")
            #expect(try await repository.list(owner: "b") == ["KRW-ETH"], "\(name)")
            #expect(try await repository.remove(owner: "a", item: "bitcoin"), "\(name)")
            #expect(try await !repository.remove(owner: "a", item: "bitcoin"), "\(name)")
            #expect(try await repository.clear(owner: "a") == 1, "\(name)")
            #expect(try await repository.list(owner: "a").isEmpty, "\(name)")
            #expect(try await repository.list(owner: "b") == ["KRW-ETH"], "\(name): other owners untouched")
            await #expect(throws: StoreError.self) { try await repository.add(owner: "a", item: "<script>") }
            await #expect(throws: StoreError.self) { try await repository.add(owner: "a", item: "BITCOIN") }
        }
    }

    @Test func aReopenedFileKeepsEverythingAndUsesWAL() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let repository = StoredFavorites(database: try AppDatabase.open(directory: directory))
            _ = try await repository.add(owner: "device", item: "KRW-XRP")
        }
        let reopened = StoredFavorites(database: try AppDatabase.open(directory: directory))
        #expect(try await reopened.list(owner: "device") == ["KRW-XRP"])
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sise.sqlite-wal").path))
    }

    @Test func anUnwritablePlaceIsAClearError() {
        #expect(throws: StoreError.self) { try AppDatabase.open(directory: URL(fileURLWithPath: "/proc/sise-cannot-be-here")) }
    }
}

@Suite struct FavoritesLimitTests {
    @Test func anOwnerKeepsAtMostTheLimit() async throws {
        for (_, repository) in try await FavoritesStoreTests.repositories() {
            for n in 0..<3 { #expect(try await repository.add(owner: "a", item: "coin-\(n)", limit: 3)) }
            await #expect(throws: StoreError.tooMany(limit: 3)) { try await repository.add(owner: "a", item: "coin-9", limit: 3) }
            #expect(try await !repository.add(owner: "a", item: "coin-1", limit: 3), "an existing item is no new row")
            #expect(try await repository.add(owner: "b", item: "coin-9", limit: 3), "the limit is per owner")
            #expect(try await repository.list(owner: "a").count == 3)
        }
    }

    @Test func readingsKeepMarketsAndCoinsApart() {
        #expect(FavoriteItem.readings("shiba-inu") == [.coin("shiba-inu")])
        #expect(FavoriteItem.readings("KRW-BTC") == [.market("KRW-BTC")])
        #expect(FavoriteItem.readings("krw-btc") == [.market("KRW-BTC"), .coin("krw-btc")])
        #expect(FavoriteItem.readings("BITCOIN").isEmpty)
        #expect(FavoriteItem.readings("<img>").isEmpty)
        #expect(FavoriteItem.readings(".hidden").isEmpty)
        #expect(FavoriteItem.readings(String(repeating: "x", count: 65)).isEmpty)
    }
}

@Suite struct CacheCleanupTests {
    @Test func oldAnswersLeaveTheCacheTable() async throws {
        for (name, database) in try await TestStores.all() {
            let cache = DatabaseCache(database: database)
            await cache.put("old", data: Data("a".utf8), fetchedAt: 1_000)
            await cache.put("new", data: Data("b".utf8), fetchedAt: 9_000)
            await cache.put("new", data: Data([0, 0xFF, 0x80]), fetchedAt: 9_500)
            #expect(await cache.purge(fetchedBefore: 5_000) == 1, "\(name)")
            #expect(await cache.get("old") == nil, "\(name)")
            #expect(await cache.get("new")?.data == Data([0, 0xFF, 0x80]), "\(name): replaced, bytes exact")
            #expect(await cache.get("new")?.fetchedAt == 9_500, "\(name)")
        }
    }
}

@Suite struct IdleDeviceTests {
    @Test func devicesIdleForMonthsLeaveWithTheirFavorites() async throws {
        for (_, database) in try await TestStores.all() { try await devicesIdleForMonthsLeave(database) }
    }

    func devicesIdleForMonthsLeave(_ database: AppDatabase) async throws {
        let favorites = StoredFavorites(database: database)
        let registry = DeviceRegistry(database: database)
        let old = String(repeating: "a", count: 32)
        let recent = String(repeating: "b", count: 32)
        let legacy = String(repeating: "c", count: 32)
        for owner in [old, recent, legacy, "local"] { try await favorites.add(owner: owner, item: "KRW-BTC") }
        let day: Int64 = 86_400_000
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        try await registry.touch(old, at: now - 200 * day)
        try await registry.touch(recent, at: now - 2 * day)
        // `legacy` has no last-seen record: its favorites were added just now, so it stays.
        #expect(try await registry.purgeIdle(seenBefore: now - 180 * day) == 1)
        #expect(try await favorites.list(owner: old).isEmpty)
        #expect(try await favorites.list(owner: recent) == ["KRW-BTC"])
        #expect(try await favorites.list(owner: legacy) == ["KRW-BTC"])
        // Far in the future everyone is idle — but the terminal's own favorites never go.
        #expect(try await registry.purgeIdle(seenBefore: now + 1_000 * day) == 2)
        #expect(try await favorites.list(owner: "local") == ["KRW-BTC"])
    }
}

@Suite struct StoreErrorWordingTests {
    @Test func everyStoreErrorSpeaksKoreanAndEnglish() {
        let errors: [StoreError] = [.unavailable(path: "/x", reason: "r"), .invalidItem("<b>"), .failed("f"), .tooMany(limit: 500)]
        for error in errors {
            #expect(error.message(.ko) != error.message(.en), "\(error)")
            #expect(error.message(.ko).unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "Hangul in \(error)")
        }
    }
}
