import Foundation
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// Webhooks and proxied images reuse the process's pinned clients: one per destination, not one
/// per call, and never more than the pool holds.
@Suite struct PinnedHTTPClientsTests {
    @Test func callsToOneDestinationShareOneClientAndThePoolIsBounded() async throws {
        let pool = PinnedHTTPClients(capacity: 2, grace: .zero)
        let received = Atomic<Int>(0)
        let receiver = try await LoopbackReceiver.start { received.add(1, ordering: .relaxed) }
        let poster = WebhookPoster(allowPrivate: true, timeout: .seconds(5), clients: pool)
        for _ in 0..<3 { try await poster.post(Data("{}".utf8), to: receiver.url, secret: "s3cr3t-key") }
        #expect(received.load(ordering: .relaxed) == 3)
        #expect(pool.count == 1, "three posts to one webhook, one client")
        // Other destinations each get theirs, up to the bound; the least recently used is closed.
        let key = { (host: String) in PinnedHTTPClients.Key(host: host, pinned: nil, connectTimeout: .seconds(1), readTimeout: .seconds(1)) }
        _ = pool.client(key("a.example"))
        _ = pool.client(key("b.example"))
        #expect(pool.count == 2)
        // The same key again is the same client.
        #expect(pool.client(key("b.example")) === pool.client(key("b.example")))
        await receiver.stop()
        await pool.shutdown()
        #expect(pool.count == 0)
    }
}
