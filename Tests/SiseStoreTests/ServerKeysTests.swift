import Foundation
import SiseStore
import SiseTestSupport
import Testing

/// The server's keys on SQLite and PostgreSQL: made once, the same for every replica that asks,
/// even two asking at the same moment.
@Suite struct ServerKeysTests {
    @Test func aKeyIsMadeOnceAndSharedByEveryone() async throws {
        for (name, database) in try await TestStores.all() {
            let keys = ServerKeys(database: database)
            async let first = keys.key("test-key") { Data(repeating: 1, count: 32) }
            async let second = keys.key("test-key") { Data(repeating: 2, count: 32) }
            let (a, b) = try await (first, second)
            #expect(a == b, "\(name): two replicas asking together get one key")
            #expect([Data(repeating: 1, count: 32), Data(repeating: 2, count: 32)].contains(a), "\(name)")
            #expect(try await keys.key("test-key") { Data(repeating: 3, count: 32) } == a, "\(name): kept")
            #expect(try await keys.key("other") { Data(repeating: 4, count: 32) } == Data(repeating: 4, count: 32), "\(name)")
        }
    }
}
