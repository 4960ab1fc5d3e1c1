import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one FX rule across the faces: for each chosen source × which sources are down, the
/// one-shot command (`sise premium --json`) and the live feed (what `serve`'s API, the page and
/// the TUI read) use the same rate source, call it a fallback alike, and say so in the same words.
@Suite(.serialized) struct FXFacesAgreeTests {
    struct Cell: Sendable, CustomTestStringConvertible {
        var chosen: FXSource
        /// `upbit-usdt` down is KRW-USDT delisted; the bank rates answer 503.
        var down: Set<FXSource>
        var used: FXSource?
        var testDescription: String { "\(chosen.rawValue) with \(down.map(\.rawValue).sorted()) down" }
    }

    static let cells: [Cell] = [
        Cell(chosen: .upbitUSDT, down: [], used: .upbitUSDT),
        Cell(chosen: .upbitUSDT, down: [.upbitUSDT], used: .dunamu),
        Cell(chosen: .dunamu, down: [], used: .dunamu),
        Cell(chosen: .dunamu, down: [.dunamu], used: .eximbank),
        Cell(chosen: .dunamu, down: [.dunamu, .eximbank], used: .upbitUSDT),
        Cell(chosen: .eximbank, down: [], used: .eximbank),
        Cell(chosen: .eximbank, down: [.eximbank], used: .dunamu),
        Cell(chosen: .upbitUSDT, down: [.upbitUSDT, .dunamu, .eximbank], used: nil),
    ]

    static func takeDown(_ down: Set<FXSource>, on simulator: RunningSimulator) async throws {
        try await SimAdmin.setFX(simulator, #"{"dunamuDown":\#(down.contains(.dunamu)),"eximDown":\#(down.contains(.eximbank))}"#)
        if down.contains(.upbitUSDT) { try await SimAdmin.setFaults(simulator, #"{"delisted":["KRW-USDT"]}"#) }
    }

    @Test(arguments: cells)
    func theOneShotAndTheLiveFeedAgree(_ cell: Cell) async throws {
        try await withSimulator { simulator in
            try await Self.takeDown(cell.down, on: simulator)
            let base = simulator.baseURL.absoluteString
            // The one-shot face.
            let result = try await SiseBinary.run(
                [
                    "premium", "BTC", "--json", "--fx", cell.chosen.rawValue, "--upbit-url", base, "--binance-url", base + "/binance",
                    "--dunamu-url", base + "/dunamu", "--exim-url", base + "/koreaexim", "--exim-key", "test-key",
                ]
            )
            #expect(result.status == 0, "\(result.stderr)")
            let row = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
            #expect(row["fxSource"] as? String == cell.chosen.rawValue)
            #expect((row["fxUsed"] as? String).flatMap(FXSource.init(rawValue:)) == cell.used, "\(row)")
            #expect(row["fxFallback"] as? Bool == (cell.used != nil && cell.used != cell.chosen))
            #expect((row["premium"] is NSNull) == (cell.used == nil), "no rate, no premium")
            #expect(!result.stderr.contains("test-key"), "the key is never printed")

            // The live face, wired as `serve` and `tui` wire it.
            let transport = LiveHTTPTransport()
            let feed = SimulatedPremium.feed(simulator, fx: cell.chosen, transport: transport, eximbankKey: "test-key").feed
            let running = ServiceTask(feed)
            try await expectEventually(timeout: .seconds(10)) { !feed.status.decision.passedOver.isEmpty || feed.status.decision.quote != nil }
            let status = feed.status
            #expect(status.decision.quote?.source == cell.used)
            #expect(status.fxFallback == (row["fxFallback"] as? Bool))
            for language in Language.allCases {
                let label = feed.inputs.sourceLabel(language, fxSource: cell.chosen)
                if let fallback = status.decision.fallbackText(language) {
                    #expect(label.contains(fallback), "\(label)")
                    #expect(fallback.contains(cell.chosen.displayName(language)))
                }
                if cell.used == nil {
                    let reason = feed.inputs.unavailableReason(language) ?? ""
                    #expect(reason.contains(cell.chosen.displayName(language)), "the chosen source named: \(reason)")
                }
            }
            await running.stop()
            await transport.shutdown()
        }
    }

    /// `sise serve`'s API says what the rule decided: the rate, where it came from, what was
    /// asked for, the stand-in named, and the official rate beside it.
    @Test func theServersAPISaysWhichRateStandsIn() async throws {
        try await withSimulator { simulator in
            try await Self.takeDown([.dunamu], on: simulator)
            let base = simulator.baseURL.absoluteString
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-fx-\(UUID().uuidString)")
            let serve = try SiseProcess([
                "serve", "--port", "0", "--data-dir", directory.path, "--fx", "dunamu", "--upbit-url", base, "--binance-url", base + "/binance",
                "--dunamu-url", base + "/dunamu", "--exim-url", base + "/koreaexim", "--exim-key", "test-key", "--coingecko-url", base + "/api/v3",
            ])
            defer { _ = serve.terminate() }
            try await expectEventually(timeout: .seconds(20)) { serve.lines.contains { $0.hasPrefix("listening on ") } }
            let server = try #require(serve.lines.first { $0.hasPrefix("listening on ") }?.dropFirst("listening on ".count))
            var table: [String: Any] = [:]
            try await expectEventually(timeout: .seconds(15)) {
                let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: "\(server)/api/premium?symbols=BTC")))
                table = (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
                return (table["fx"] as? [String: Any])?["source"] != nil
            }
            let fx = try #require(table["fx"] as? [String: Any])
            #expect(fx["source"] as? String == "eximbank" && fx["chosen"] as? String == "dunamu" && fx["fallback"] as? Bool == true)
            #expect(fx["basis"] as? String == "official")
            let display = try #require(table["display"] as? [String: String])
            #expect(display["fallback"] == "Hana Bank rate failed; using Korea Eximbank rate", "\(display)")
            let row = try #require((table["rows"] as? [[String: Any]])?.first)
            #expect(row["fxUsed"] as? String == "eximbank" && row["fxSource"] as? String == "dunamu" && row["fxFallback"] as? Bool == true)
            #expect(!serve.lines.joined().contains("test-key"), "the key is never logged")
        }
    }
}
