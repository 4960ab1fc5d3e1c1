import Foundation
import HummingbirdTesting
import SiseTestSupport
import Testing

@testable import SiseServer

/// New `/ws` connections per client: a burst, then a steady rate; a refusal says when to come
/// back (a message and close code 1013) and is counted; the buckets do not grow without bound.
@Suite struct ConnectRateTests {
    @Test func aBurstThenTheSteadyRate() {
        let rate = ConnectRate(burst: 3, perSecond: 0.5)
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(rate.take(["ip:1.2.3.4"], at: start) == nil) }
        let wait = rate.take(["ip:1.2.3.4"], at: start)
        #expect(wait == .seconds(2), "one more in 1 / 0.5 s")
        // Another client is not held back by this one.
        #expect(rate.take(["ip:5.6.7.8"], at: start) == nil)
        #expect(rate.take(["ip:1.2.3.4"], at: start + .seconds(1)) == .seconds(1))
        #expect(rate.take(["ip:1.2.3.4"], at: start + .seconds(2)) == nil)
        #expect(rate.take(["ip:1.2.3.4"], at: start + .seconds(2)) != nil)
    }

    /// Address and device each have a bucket; a refused connection takes from neither.
    @Test func everyIdentityMustHaveRoomAndARefusalCostsNothing() {
        let rate = ConnectRate(burst: 2, perSecond: 1)
        let now = ContinuousClock.now
        #expect(rate.take(["ip:9.9.9.9", "device:a"], at: now) == nil)
        #expect(rate.take(["ip:9.9.9.9", "device:a"], at: now) == nil)
        // The device is out of room, whatever the address.
        #expect(rate.take(["ip:8.8.8.8", "device:a"], at: now) != nil)
        // That refusal took nothing from 8.8.8.8.
        #expect(rate.take(["ip:8.8.8.8"], at: now) == nil)
        #expect(rate.take(["ip:8.8.8.8"], at: now) == nil)
        #expect(rate.take(["ip:8.8.8.8"], at: now) != nil)
    }

    @Test func refilledBucketsAreForgotten() {
        let rate = ConnectRate(burst: 5, perSecond: 1)
        let start = ContinuousClock.now
        for index in 0..<5_000 { _ = rate.take(["ip:10.0.\(index / 256).\(index % 256)"], at: start) }
        #expect(rate.tracked == 5_000, "a bucket still refilling is never forgotten")
        // Six seconds on, every bucket is full again: the next sweep drops them all.
        let later = start + .seconds(6)
        for index in 0..<5_000 { _ = rate.take(["ip:11.0.\(index / 256).\(index % 256)"], at: later) }
        #expect(rate.tracked <= 5_000, "\(rate.tracked) buckets kept: the full ones were not forgotten")
        #expect(rate.take(["ip:10.0.0.1"], at: later) == nil)
    }

    @Test func theConnectionTooManyIsToldWhenToComeBack() async throws {
        let limits = ConnectionLimits(webSocketConnectBurst: 3, webSocketConnectsPerSecond: 0.02, webSocketRateLimitsLoopback: true)
        let configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory(), limits: limits)
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for _ in 0..<3 {
                let page = try await RawWebSocket.open(port: port)
                #expect(try await page.upgraded())
                try await page.send(text: #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","lang":"en"}"#)
                #expect(try await page.waitFor(bytes: page.receivedBytes + 200), "an admitted page gets its board")
                #expect(page.closeCode == nil)
                await page.close()
            }
            let refused = try await RawWebSocket.open(port: port)
            #expect(try await refused.upgraded())
            try await expectEventually(timeout: .seconds(5)) { refused.closeCode != nil }
            #expect(refused.closeCode == 1_013)
            let message = try #require(refused.frames.first { $0.opcode == 0x1 }.map { String(decoding: $0.payload, as: UTF8.self) })
            let json = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
            #expect(json["type"] as? String == "error" && json["code"] as? String == "too_many_connections")
            #expect((json["retryAfter"] as? Int).map { (1...50).contains($0) } == true, "\(json)")
            await refused.drop()
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(MetricsTests.value(metrics, #"sise_ws_refused_total{reason="rate"}"#) == 1)
        }
    }
}
