import Foundation
import HummingbirdWSClient
import Logging
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// `POST /_sim/price`: a price set by hand shows in REST at once and goes out on open streams
/// at once — what the face × exchange matrix times its faces against.
@Suite struct SimulatorPriceTests {
    final class Frames: Sendable {
        let texts = Mutex<[String]>([])
        func add(_ text: String) { texts.withLock { $0.append(text) } }
        func any(_ match: (String) -> Bool) -> Bool { texts.withLock { $0.contains(where: match) } }
    }

    @Test func aPinnedPriceIsInRESTAndOnTheStreamAtOnce() async throws {
        // No random frames: anything the stream sends after the snapshot is the pin's.
        try await withSimulator(
            SimulatorConfiguration(
                faults: {
                    var f = SimFaults()
                    f.wsRate = 0
                    return f
                }()
            )
        ) { simulator in
            let frames = Frames()
            let url = "ws://127.0.0.1:\(simulator.port)/websocket/v1"
            let subscribe = #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"DEFAULT"}]"#
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await WebSocketClient.connect(url: url, logger: Logger(label: "test")) { inbound, outbound, _ in
                        try await outbound.write(.text(subscribe))
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .binary(let buffer) = message { frames.add(String(buffer: buffer)) }
                        }
                    }
                }
                try await expectEventually(timeout: .seconds(5)) { frames.any { $0.contains("SNAPSHOT") } }
                let started = ContinuousClock.now
                #expect(try await SimAdmin.setPrice(simulator, "KRW-BTC", 123_456_000) == 200)
                try await expectEventually(timeout: .seconds(2)) { frames.any { $0.contains(#""trade_price":123456000"#) } }
                #expect(ContinuousClock.now - started < .seconds(2))
                group.cancelAll()
            }
            let (status, body) = try await SimAdmin.get(simulator, "/v1/ticker?markets=KRW-BTC")
            #expect(status == 200 && String(decoding: body, as: UTF8.self).contains(#""trade_price":123456000"#))
            // Korbit and Bithumb have pins of their own.
            #expect(try await SimAdmin.setPrice(simulator, "KRW-BTC", 99_000_000, exchange: "bithumb") == 200)
            let (_, bithumb) = try await SimAdmin.get(simulator, "/bithumb/v1/ticker?markets=KRW-BTC")
            #expect(String(decoding: bithumb, as: UTF8.self).contains(#""trade_price":99000000"#))
            // Released, the price walks again.
            #expect(try await SimAdmin.setPrice(simulator, "KRW-BTC", nil) == 200)
            let (_, walked) = try await SimAdmin.get(simulator, "/v1/ticker?markets=KRW-BTC")
            #expect(!String(decoding: walked, as: UTF8.self).contains(#""trade_price":123456000"#))
        }
    }

    @Test(arguments: [#"{"market":"KRW-NOPE","price":1}"#, #"{"market":"KRW-BTC","price":-5}"#, #"{"price":1}"#, "nope"])
    func aBadPinIsRefused(_ body: String) async throws {
        try await withSimulator { simulator in
            let status = try await SimAdmin.setPrice(simulator, "", nil, body: body)
            #expect(status == 400)
        }
    }
}
