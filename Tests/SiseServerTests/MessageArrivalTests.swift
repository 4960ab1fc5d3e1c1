import Foundation
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseSimulator
import SiseTestSupport
import Testing

/// The 20-messages-a-second limit of `/ws` counts messages as they arrive, not when the server
/// gets round to them: a page sending a steady 18 a second stays open while the server is slow to
/// act on one of them (its coin page's first 호가/체결 read over a REST call that hangs), and a
/// page that really sends 30 a second is still cut off.
@Suite struct MessageArrivalTests {
    static func view(_ index: Int) -> String {
        #"{"type":"view","quote":"KRW","sort":"\#(index % 2 == 0 ? "value" : "change")","order":"desc","q":"","favoritesOnly":false,"lang":"en"}"#
    }

    /// Sends `count` views at `perSecond`, the upstream's REST hanging for the first half.
    static func send(_ page: RawWebSocket, _ simulator: RunningSimulator, count: Int, perSecond: Int) async throws {
        try await SimAdmin.setFaults(simulator, #"{"hang":true}"#)
        try await page.send(text: #"{"type":"depth","exchange":"upbit","market":"KRW-BTC"}"#)
        let start = ContinuousClock.now
        for index in 0..<count where page.isOpen {
            if index == count / 2 { try await SimAdmin.setFaults(simulator, #"{"hang":false}"#) }
            try await page.send(text: view(index))
            try await Task.sleep(until: start + .milliseconds(1_000 * (index + 1) / perSecond), clock: .continuous)
        }
        try await SimAdmin.setFaults(simulator, #"{"hang":false}"#)
    }

    @Test(arguments: [(18, false), (30, true)])
    func messagesAreCountedOnArrival(perSecond: Int, closed: Bool) async throws {
        try await withSimulator { simulator in
            let configuration = ServerConfiguration(port: 0, dataDirectory: ServerHarness.temporaryDirectory())
            let app = try await ServerHarness.build(configuration, upbitURL: simulator.baseURL)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                _ = try await waitUntil(timeout: .seconds(15)) { try await client.execute(uri: "/api/markets", method: .get).status == .ok }
                let page = try await RawWebSocket.open(port: port, keepAll: true)
                #expect(try await page.upgraded())
                try await Self.send(page, simulator, count: perSecond * 3, perSecond: perSecond)
                if closed {
                    _ = try await waitUntil(timeout: .seconds(5)) { page.closeCode != nil }
                    #expect(page.closeCode == 1_008, "a page sending \(perSecond) a second is cut off")
                } else {
                    // What must not happen: the messages, held behind the slow read, counted at once
                    // when it ends. A view the server refuses comes after them all: its refusal
                    // means every one was read and counted, and the page is still open.
                    try await page.send(text: #"{"type":"view","quote":"NOPE"}"#)
                    _ = try await waitUntil(timeout: .seconds(10)) {
                        page.texts.contains { $0.contains(#""type":"error""#) } || page.closeCode != nil
                    }
                    #expect(
                        page.isOpen && page.closeCode == nil,
                        "a steady \(perSecond) a second is within the limit (closed \(String(describing: page.closeCode)))"
                    )
                }
            }
        }
    }
}
