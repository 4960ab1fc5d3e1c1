import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator

/// `sise bench` (hidden): decode-and-apply throughput of Upbit, Bithumb and Korbit ticker frames on one core, next
/// to Foundation's JSONDecoder and, when Python is at hand, ccxt's `upbit.parse_ticker`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark ticker-frame decoding (build with -c release for real figures).",
        shouldDisplay: false
    )

    @Option(help: "Seconds per measurement.")
    var seconds: Double = 3

    @Option(help: "Folder of real recorded frames (upbit-ws-ticker-*.json).")
    var fixtures: String = "../shared/fixtures/real"

    @Option(help: "Synthetic frames added to the real ones.")
    var synthetic: Int = 20_000

    @Flag(name: .customLong("no-ccxt"), help: "Skip the ccxt comparison.")
    var noCCXT = false

    @Flag(help: "Instead: what keeping the premium's history costs (SQLite, the real matrix's size).")
    var history = false

    @Option(help: "Instead: the tax preview's time over ten years of this many transactions (50000 is the target's size).")
    var tax: Int?

    @Option(help: "Instead: an Upbit history of this many closed orders over five years synced from the simulator (50000 is the target).")
    var sync: Int?

    @Option(help: "With --history: the series written each minute (four exchanges × coins × three venues).")
    var series: Int = 2_760

    @Option(help: "With --history: the minutes written.")
    var minutes: Int = 1_440

    @Option(
        help:
            "Instead: the alert engine with this many enabled rules each (comma-separated, e.g. 10000,100000,1000000), on the demo simulator's four exchanges."
    )
    var alerts: String?

    @Option(help: "With --alerts: measurements per N, taking turns with and without the engine (the median is printed).")
    var runs: Int = 3

    @Option(
        help:
            "Instead: wide alert rules on favorites, this many rule × market pairs (comma-separated, e.g. 1000,10000,100000), on the demo simulator."
    )
    var listRules: String?

    @Option(help: "With --list-rules: the owners the pairs are spread over.")
    var owners: Int = 4

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions
    @OptionGroup var premiumOptions: PremiumOptions

    func validate() throws {
        guard seconds > 0 && seconds <= 3_600 else { throw ValidationError("--seconds must be between 0 and 3600.") }
        guard (0...10_000_000).contains(synthetic) else { throw ValidationError("--synthetic must be 0–10000000.") }
        guard (12...100_000).contains(series), (1...100_000).contains(minutes) else {
            throw ValidationError("--series 12–100000, --minutes 1–100000.")
        }
        if let alerts, ruleCounts(alerts) == nil { throw ValidationError("--alerts takes counts of 1–10000000, comma-separated.") }
        if let listRules, ruleCounts(listRules) == nil { throw ValidationError("--list-rules takes counts of 1–10000000, comma-separated.") }
        guard (1...100).contains(owners) else { throw ValidationError("--owners must be 1–100.") }
        guard (1...20).contains(runs) else { throw ValidationError("--runs must be 1–20.") }
    }

    private func ruleCounts(_ text: String) -> [Int]? {
        let counts = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.count == text.split(separator: ",").count, counts.allSatisfy({ (1...10_000_000).contains($0) }) else {
            return nil
        }
        return counts
    }

    /// `--alerts`: the demo simulator's four exchanges, their boards and the premium feed run as a
    /// service group while `AlertBench` measures.
    private func benchAlerts(_ counts: [Int], wide: Bool = false) async throws {
        var logger = Logger(label: "sise.bench")
        logger.logLevel = .error
        let settings = global.settings
        let root = try await Root.live(settings, demo: .init(), logger: logger)
        let upstreams = try LiveUpstreams.build(
            root,
            coinGecko: gecko,
            primary: .default,
            board: .init(exchange: .default),
            silence: .seconds(5),
            logger: logger
        )
        let premium = upstreams.premiumFeed(try PremiumSettings(premiumOptions, settings.sources), coinInfo: nil, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: (upstreams.services + [premium]).map { .init(service: $0) },
                gracefulShutdownSignals: [.sigint],
                logger: logger
            )
        )
        let running = Task { try await group.run() }
        do {
            if wide, let simulator = root.simulator {
                try await ListRuleBench.run(
                    pairs: counts,
                    owners: owners,
                    seconds: seconds,
                    upstreams: upstreams,
                    premium: premium,
                    simulator: simulator.baseURL,
                    transport: root.transport
                )
            } else {
                try await AlertBench.run(counts: counts, seconds: seconds, runs: runs, upstreams: upstreams, premium: premium)
            }
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    func run() async throws {
        if history { return try await HistoryBench.run(series: series, minutes: minutes) }
        if let tax { return try TaxBench.run(transactions: max(1, min(tax, 10_000_000))) }
        if let sync { return try await SyncBench.run(orders: max(1, min(sync, 200_000)), runs: runs, settings: global.settings) }
        if let alerts, let counts = ruleCounts(alerts) { return try await benchAlerts(counts) }
        if let listRules, let counts = ruleCounts(listRules) { return try await benchAlerts(counts, wide: true) }
        let real = loadRealFrames()
        let defaults = real + SimulatorFrames.tickers(count: synthetic, format: .default).map { Array($0.utf8) }
        let simple = SimulatorFrames.tickers(count: synthetic, seed: 7, format: .simple).map { Array($0.utf8) }
        print("frames: \(real.count) real (../shared/fixtures/real) + \(synthetic) synthetic DEFAULT; \(synthetic) synthetic SIMPLE")
        print("one core, \(seconds) s per row")
        let fast = measure(defaults) { bytes in bytes.withUnsafeBytes { UpbitTickerFrameDecoder.decode($0) } }
        row("Sise byte decoder + apply (DEFAULT)", fast)
        let fastSimple = measure(simple) { bytes in bytes.withUnsafeBytes { UpbitTickerFrameDecoder.decode($0) } }
        row("Sise byte decoder + apply (SIMPLE)", fastSimple)
        let foundation = measure(defaults) { bytes in
            if case .ticker(let t, _)? = try? UpbitStreamDecoder.decode(Data(bytes)) { return t }
            return nil
        }
        row("Foundation JSONDecoder + apply (DEFAULT)", foundation)
        // Bithumb's stream speaks Upbit's protocol (the same decoder, its own frames); Korbit's is its own.
        let bithumb = SimulatorFrames.tickers(count: synthetic, seed: 11, format: .default).map { Array($0.utf8) }
        row("Bithumb frames, byte decoder + apply", measure(bithumb) { bytes in bytes.withUnsafeBytes { UpbitTickerFrameDecoder.decode($0) } })
        let korbit = loadRealFrames(prefix: "korbit-v2-ws-ticker-") + SimulatorFrames.korbitTickers(count: synthetic).map { Array($0.utf8) }
        row(
            "Korbit frames, decoder + apply",
            measure(korbit) { bytes in
                if case .ticker(let ticker) = bytes.withUnsafeBytes({ KorbitTickerWire.decode($0) }) { return ticker }
                return nil
            }
        )
        if !noCCXT { runCCXT(defaults) }
    }

    private func loadRealFrames(prefix: String = "upbit-ws-ticker-") -> [[UInt8]] {
        let folder = URL(fileURLWithPath: fixtures)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { return nil }
            // One frame per line for every consumer; JSON does not care about the whitespace.
            return data.map { $0 == 10 || $0 == 13 ? 32 : $0 }
        }
    }

    /// Frames decoded and applied to a board table per second, on this thread.
    private func measure(_ frames: [[UInt8]], decode: ([UInt8]) -> Ticker?) -> Double {
        var board: [MarketID: Ticker] = [:]
        for frame in frames { if let t = decode(frame) { board[t.market] = t } }
        var done = 0
        var applied = 0
        let clock = ContinuousClock()
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1_000))
        while clock.now - start < budget {
            for frame in frames {
                if let ticker = decode(frame) {
                    // Apply: replace the row's ticker in place when newer, as the engine does.
                    if let current = board[ticker.market], current.timestamp > ticker.timestamp { continue }
                    board[ticker.market] = ticker
                    applied += 1
                }
            }
            done += frames.count
        }
        let elapsed = clock.now - start
        precondition(applied > 0, "nothing decoded")
        return Double(done) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func runCCXT(_ frames: [[UInt8]]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sise-bench-frames.jsonl")
        let lines = frames.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
        guard (try? lines.write(to: file, atomically: true, encoding: .utf8)) != nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "scripts/bench-ccxt.sh")
        process.arguments = [file.path, String(seconds)]
        let out = Pipe()
        process.standardOutput = out
        do {
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            print(process.terminationStatus == 0 ? text : "ccxt: not measured (scripts/bench-ccxt.sh failed)")
        } catch {
            print("ccxt: not measured (run from the project root; \(error))")
        }
    }

    private func row(_ label: String, _ perSecond: Double) {
        print(
            TextColumns.fit(label, width: 44) + TextColumns.fit(NumberText.grouped(perSecond, decimals: 0), width: 12, alignment: .right)
                + " frames/s"
        )
    }
}
