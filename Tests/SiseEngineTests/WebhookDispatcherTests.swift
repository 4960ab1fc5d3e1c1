import Foundation
@testable import SiseEngine
import SiseCore
import SiseFeeds
import SiseStore
import Testing

@Suite struct WebhookDispatcherTests {
    @Test func failedDeliveriesAreRetriedLoggedAndTheWebhookDisabled() async throws {
        let store = AlertStore(database: try AppDatabase.inMemory())
        // A loopback port nobody listens on: every attempt fails fast.
        let hook = AlertStore.Webhook(id: "w", owner: "o", url: "http://127.0.0.1:9/hook", secret: "secret-secret", createdAt: 0)
        try await store.addWebhook(hook)
        let dispatcher = WebhookDispatcher(store: store, poster: WebhookPoster(allowPrivate: true, timeout: .milliseconds(300)),
                                           retryDelays: [.milliseconds(10), .milliseconds(10)])
        let rule = AlertRule(id: "a", owner: "o", market: MarketID("KRW-BTC")!, kind: .above, value: 1)
        await dispatcher.deliver(AlertFiring(id: "f1", rule: rule, price: 2, observed: nil, at: 1), to: hook)
        var log = try await store.deliveries(owner: "o", webhookID: "w")
        #expect(log.map(\.attempt) == [3, 2, 1], "an attempt and two retries, newest first")
        #expect(log.allSatisfy { !$0.ok && $0.error != nil })
        #expect(try await store.webhooks(owner: "o").first?.disabled == false)
        await dispatcher.deliver(AlertFiring(id: "f2", rule: rule, price: 2, observed: nil, at: 2), to: hook)
        let after = try await store.webhooks(owner: "o").first
        #expect(after?.disabled == true, "disabled after \(AlertStore.failuresBeforeDisabling) failures in a row")
        log = try await store.deliveries(owner: "o", webhookID: "w")
        #expect(log.count == AlertStore.failuresBeforeDisabling, "no attempt after the webhook was disabled")
        #expect(try await store.deliveries(owner: "someone-else", webhookID: "w").isEmpty)
    }
}
