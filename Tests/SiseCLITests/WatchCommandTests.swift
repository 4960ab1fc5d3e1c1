import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise watch --json` as a script sees it, across an exchange restart.
@Suite struct WatchCommandTests {
    func objects(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func states(_ process: SiseProcess) -> [String] {
        objects(process.lines).filter { $0["type"] as? String == "status" }.compactMap { $0["state"] as? String }
    }

    @Test func ndjsonSurvivesTheExchangeGoingAwayAndComingBack() async throws {
        let first = try await RunningSimulator.start()
        let port = first.port
        let watch = try SiseProcess(["watch", "--json", "--upbit-url", "http://127.0.0.1:\(port)"])
        try await expectEventually(timeout: .seconds(15)) {
            states(watch).contains("live") && objects(watch.lines).filter { $0["type"] as? String == "ticker" }.count >= 5
        }
        // One reading of the lines: more keep arriving while the test looks.
        let lines = watch.lines
        let parsed = objects(lines)
        #expect(parsed.count == lines.count, "every line is one JSON object")
        #expect(parsed.first?["type"] as? String == "status")
        let status = try #require(parsed.first)
        #expect(Set(status.keys) == ["type", "exchange", "state", "since", "message"])
        #expect(status["exchange"] as? String == "upbit")
        let ticker = try #require(parsed.first { $0["type"] as? String == "ticker" })
        #expect(
            Set(ticker.keys) == [
                "type", "exchange", "market", "symbol", "koreanName", "englishName", "price", "change",
                "changeRate", "changePrice", "tradeValue24h", "warning", "cautionLevel", "cautionReasons", "premium", "display", "at",
            ]
        )

        await first.stop()
        try await expectEventually(timeout: .seconds(10)) {
            let seen = states(watch)
            return seen.last == "offline" || seen.last == "delayed"
        }
        let second = try await RunningSimulator.start(SimulatorConfiguration(port: port))
        let before = states(watch).count
        try await expectEventually(timeout: .seconds(15)) { states(watch).dropFirst(before).contains("live") }
        #expect(watch.terminate() == 0, "SIGTERM ends the stream cleanly")
        await second.stop()
    }

    @Test func countAndDurationEndTheStream() async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let counted = try await SiseBinary.run(["watch", "--json", "--count", "3", "--upbit-url", url])
            #expect(counted.status == 0)
            let lines = objects(counted.stdout.split(separator: "\n").map(String.init))
            #expect(lines.filter { $0["type"] as? String == "ticker" }.count == 3)
            let start = ContinuousClock.now
            let timed = try await SiseBinary.run(["watch", "BTC", "--duration", "1.5", "--upbit-url", url, "--lang", "en"])
            #expect(timed.status == 0)
            #expect(ContinuousClock.now - start < .seconds(8))
            let tickers = timed.stdout.split(separator: "\n").filter { $0.contains("/KRW") }
            #expect(tickers.allSatisfy { $0.contains("Bitcoin") && $0.contains("BTC/KRW") })
        }
    }
}

/// `sise watch` on every exchange, as the user typed it: the face is a viewer of the
/// board it follows, so a board that starts idle (every exchange but Upbit) streams for it.
@Suite struct WatchEveryExchangeTests {
    /// One row per exchange: its flags against one simulator (Korbit and Bithumb with only their
    /// own URL, as a user would type them).
    static func flags(_ exchange: String, _ url: String) -> [String] {
        switch exchange {
        case "bithumb": ["--bithumb-url", url + "/bithumb"]
        default: ["--\(exchange)-url", url]
        }
    }

    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func watchStreamsTickersOf(_ exchange: String) async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let started = ContinuousClock.now
            let run = try await SiseBinary.run(
                ["watch", "KRW-BTC", "--exchange", exchange, "--json", "--count", "2", "--duration", "20"] + Self.flags(exchange, url)
            )
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let tickers = lines.filter { $0["type"] as? String == "ticker" }
            #expect(tickers.count == 2, "\(exchange): \(run.stdout.prefix(600))")
            #expect(tickers.allSatisfy { $0["exchange"] as? String == exchange && $0["market"] as? String == "KRW-BTC" })
            #expect(!lines.contains { $0["state"] as? String == "idle" }, "a running watch is a viewer, never idle")
            let states = lines.filter { $0["type"] as? String == "status" }.compactMap { $0["state"] as? String }
            #expect(!states.contains("offline"), "nothing failed, so nothing is offline: \(states)")
            #expect(states.first == "connecting" || states.first == "live", "\(states)")
            #expect(ContinuousClock.now - started < .seconds(15), "the tickers came at once, not at the duration's end")
        }
    }
}
