import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseCore
import SiseFeeds
import SiseServer
import SiseTestSupport
import Testing

/// One owner floods the delivery queue: fifteen destinations that answer after 4.5 s, twenty
/// rules firing at once (300 deliveries). Another owner's firing is still delivered at once: the
/// flood costs only its owner's slots.
@Suite struct DeliveryFairnessTests {
    typealias StandIn = AlertDestinationsTests.StandIn

    @Test func oneOwnersFloodOfSlowDestinationsHoldsNoOneElsesFiring() async throws {
        let inbox = StandIn()
        try await AlertDestinationsTests.standIn(inbox).test(.live) { standInClient in
            let base = "http://127.0.0.1:\(try #require(standInClient.port))"
            let chats = ChatServices(slack: try #require(URL(string: base + "/slack/")))
            try await ServerHarness.run(allowPrivateWebhooks: true, configure: { $0.chats = chats }) { client in
                func post(_ uri: String, _ headers: HTTPFields, _ body: String) async throws -> HTTPResponse.Status {
                    try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)).status
                }
                let (flooder, other) = (try await CookieJar.visitor(client).json, try await CookieJar.visitor(client).json)
                let keys =
                    #""keys":{"p256dh":"\#(Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation))","auth":"\#(Base64URL.encode(WebPushEncryption.randomBytes(16)))"}"#
                for index in 0..<10 {
                    #expect(try await post("/api/push/subscriptions", flooder, #"{"endpoint":"\#(base)/slower/tab\#(index)",\#(keys)}"#) == .created)
                }
                for index in 0..<5 {
                    #expect(
                        try await post("/api/webhooks", flooder, #"{"url":"\#(base)/slower/hook\#(index)","secret":"a-secret-\#(index)"}"#)
                            == .created
                    )
                }
                #expect(try await post("/api/webhooks", other, #"{"kind":"slack","url":"\#(base)/slack/T/B/other"}"#) == .created)
                for price in 1...20 {
                    #expect(
                        try await post("/api/alerts", flooder, #"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"\#(price)"}"#)
                            == .created
                    )
                }
                // The flood is under way: its deliveries hold what slots they may.
                #expect(try await waitUntil(timeout: .seconds(10)) { inbox.at("/slower/").count >= 4 }, "the slow destinations are being asked")
                let fired = ContinuousClock.now
                #expect(try await post("/api/alerts", other, #"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#) == .created)
                #expect(try await waitUntil(timeout: .seconds(15)) { !inbox.at("/slack/").isEmpty })
                let waited = fired.duration(to: .now)
                #expect(waited < .seconds(2), "the other owner's firing waited \(waited) behind one owner's flood")
            }
        }
    }
}
