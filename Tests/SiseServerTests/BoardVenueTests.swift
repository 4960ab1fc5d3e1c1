import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOCore
import SiseTestSupport
import Synchronization
import Testing

/// The board's 김프 column against a chosen global venue: a view that says `"venue":"okx"` gets
/// its premiums (and its premium sort) from OKX at the same rate, follows OKX's prices as they are
/// polled, and never shows a figure for a ticker OKX lists as another coin (ADA in the simulator).
@Suite struct BoardVenueTests {
    /// The page's messages; its rows by market as a page keeps them (the snapshot's, then each patch's).
    final class Page: Sendable {
        private let texts = Mutex<[String]>([])

        func take(_ text: String) { texts.withLock { $0.append(text) } }

        private struct Seen {
            var rows: [String: [String: Any]] = [:]
            var order: [String] = []
            var views: [[String: Any]] = []
            var errors = 0
        }

        private var seen: Seen {
            var seen = Seen()
            for text in texts.withLock({ $0 }) {
                guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
                let type = message["type"] as? String
                if type == "error" { seen.errors += 1 }
                guard type == "snapshot" || type == "patch" else { continue }
                if type == "snapshot" {
                    seen.rows = [:]
                    if let view = message["view"] as? [String: Any] { seen.views.append(view) }
                }
                for row in message["rows"] as? [[String: Any]] ?? [] { if let code = row["market"] as? String { seen.rows[code] = row } }
                if let order = message["order"] as? [String] { seen.order = order }
            }
            return seen
        }

        func premium(_ code: String) -> Double?? { seen.rows[code].map { $0["premium"] as? Double } }
        var lastView: [String: Any]? { seen.views.last }
        var errors: Int { seen.errors }
        /// The premiums in the page's order (nulls as nil).
        var orderedPremiums: [Double?] {
            let seen = seen
            return seen.order.compactMap { code in seen.rows[code].map { $0["premium"] as? Double } }
        }
    }

    @Test func theColumnAgainstOKX() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let page = Page()
            let (commands, send) = AsyncStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/ws",
                        configuration: .init(maxFrameSize: 1 << 22),
                        logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        let writer = Task { for await text in commands { try await outbound.write(.text(text)) } }
                        defer { writer.cancel() }
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { page.take(text) }
                        }
                    }
                }
                // Binance's column first: ADA is the coin there.
                send.yield(#"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"","lang":"en"}"#)
                try await expectEventually(timeout: .seconds(15), "Binance's premiums") {
                    page.premium("KRW-BTC")??.isFinite == true && page.premium("KRW-ADA")??.isFinite == true
                }
                #expect(page.lastView?["venue"] as? String == "binance")
                // Against OKX, sorted by the premium: OKX's figures as they come in, none for ADA.
                send.yield(#"{"type":"view","quote":"KRW","sort":"premium","order":"desc","q":"","venue":"okx","lang":"en"}"#)
                try await expectEventually(timeout: .seconds(15), "OKX's premiums") {
                    page.lastView?["venue"] as? String == "okx" && page.premium("KRW-BTC")??.isFinite == true
                }
                #expect(page.premium("KRW-ADA") == .some(nil), "OKX's ADA is another coin: no figure")
                try await expectEventually(timeout: .seconds(10), "the order follows OKX's premiums") {
                    let figures = page.orderedPremiums
                    let known = figures.prefix { $0 != nil }.compactMap { $0 }
                    return known.count >= 10 && known == known.sorted(by: >) && figures.dropFirst(known.count).allSatisfy { $0 == nil }
                }
                send.yield(#"{"type":"view","quote":"KRW","venue":"kraken"}"#)
                try await expectEventually { page.errors == 1 }
                send.finish()
                group.cancelAll()
            }
            // The same choice over REST.
            let okx = try await client.execute(uri: "/api/markets?exchange=upbit&venue=okx", method: .get)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(buffer: okx.body)) as? [[String: Any]])
            let ada = try #require(rows.first { $0["market"] as? String == "KRW-ADA" })
            #expect(okx.status == .ok && ada["premium"] is NSNull && rows.contains { $0["premium"] is Double })
            #expect(try await client.execute(uri: "/api/markets?venue=kraken", method: .get).status == .badRequest)
        }
    }
}
