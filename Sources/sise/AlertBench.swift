import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseStore
import Synchronization

/// `sise bench --alerts 10000,100000,1000000`: the alert engine at scale. The demo simulator's
/// four exchanges feed their boards at its full tick rate (every KRW market); N enabled rules —
/// a realistic mix over every market: price lines near the price, moves, volume spikes, premium
/// lines (some held) — are loaded into a SQLite store, and the real `AlertEngine` runs on them.
/// Printed per N: the load at start-up (store read + book), memory per rule (the process's RSS
/// with the engine loaded, less without), CPU of the tick path (the process with the engine, less
/// the same process without it, in turns), per batch of changed rows, and the time from a tick
/// (its exchange timestamp) to the firing's hand-off to delivery.
enum AlertBench {
    struct Figures {
        var load: Duration = .zero
        var loaded = 0
        var seeding: Duration = .zero
        var bytesPerRule = 0.0
        var enginePercent: [Double] = []
        var microsPerBatch: [Double] = []
        var latencies: [Double] = []
        var firings = 0
    }

    static func run(counts: [Int], seconds: Double, runs: Int, upstreams: LiveUpstreams, premium: PremiumFeed) async throws {
        let boards = upstreams.boards
        // Every board awake for the whole run, with or without the engine.
        for (_, board) in boards.all { board.viewerArrived() }
        let batches = BatchCounter(boards: boards)
        let deadline = ContinuousClock.now + .seconds(60)
        while boards.all.contains(where: { $0.board.snapshot.status.state != .live || $0.board.snapshot.rows.isEmpty }) {
            guard ContinuousClock.now < deadline else { throw CLIFailure.usage("sise: the boards never went live") }
            try await Task.sleep(for: .milliseconds(200))
        }
        let rows = boards.all.flatMap { exchange, board in
            board.snapshot.rows.values.filter { $0.id.quote == "KRW" }.map { (exchange, $0) }
        }
        print(
            "alert engine: \(rows.count) KRW markets on \(boards.all.count) exchanges, \(runs) × \(Int(seconds)) s per N, with and without the engine in turns"
        )
        print(
            "N | load (store + book) | indicator series seeded | RSS per rule | tick path (% of a core) | per batch | tick → hand-off p50 / p99 | firings"
        )
        for count in counts {
            let figures = try await measure(
                count: count,
                rows: rows,
                seconds: seconds,
                runs: runs,
                boards: boards,
                premium: premium,
                batches: batches
            )
            let percent = median(figures.enginePercent)
            let perBatch = median(figures.microsPerBatch)
            let sorted = figures.latencies.sorted()
            let p50 = sorted.isEmpty ? "-" : String(format: "%.0f ms", sorted[sorted.count / 2])
            let p99 = sorted.isEmpty ? "-" : String(format: "%.0f ms", sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
            print(
                "\(count) (\(figures.loaded) loaded) | \(String(format: "%.2f s", secondsOf(figures.load))) | \(String(format: "%.1f s", secondsOf(figures.seeding))) | \(String(format: "%.0f B", figures.bytesPerRule)) | "
                    + "\(String(format: "%.2f %%", percent)) (runs: \(figures.enginePercent.map { String(format: "%.2f", $0) }.joined(separator: ", "))) | "
                    + "\(String(format: "%.0f µs", perBatch)) | \(p50) / \(p99) | \(figures.firings)"
            )
        }
        for (_, board) in boards.all { board.viewerLeft() }
    }

    private static func measure(
        count: Int,
        rows: [(Exchange, MarketRow)],
        seconds: Double,
        runs: Int,
        boards: ExchangeBoards,
        premium: PremiumFeed,
        batches: BatchCounter
    ) async throws -> Figures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-alert-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase.open(directory: directory)
        let store = AlertStore(database: database)
        try await store.addMany(rules(count, over: rows))
        var figures = Figures()
        let latencies = LatencyLog()
        for run in 0..<runs {
            // Without the engine: the boards, the simulator and the premium feed alone.
            let before = cpuSeconds()
            let batchesBefore = batches.count
            try await Task.sleep(for: .seconds(seconds))
            let idle = cpuSeconds() - before
            _ = batches.count - batchesBefore
            // With it: loaded first (timed on the first run), then measured as long.
            let rssBefore = residentBytes()
            var quiet = Logger(label: "bench")
            quiet.logLevel = .critical
            let engine = AlertEngine(boards: boards, store: store, premium: premium, logger: quiet) { firing in
                latencies.add(Double(WallClock.system.now - firing.at))
            }
            let started = ContinuousClock.now
            let task = Task { try? await engine.run() }
            // Loaded: every enabled rule (a one-shot rule that fired in an earlier run is off).
            while !engine.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            if run == 0 {
                figures.load = ContinuousClock.now - started
                figures.loaded = engine.ruleCount
            }
            // The indicator series seeded from the exchanges' candles (start-up work, not the tick path).
            let seeding = ContinuousClock.now
            while !engine.indicatorsSeeded, ContinuousClock.now - seeding < .seconds(300) { try await Task.sleep(for: .milliseconds(100)) }
            if run == 0 {
                figures.seeding = ContinuousClock.now - seeding
                figures.bytesPerRule = Double(residentBytes() - rssBefore) / Double(count)
            }
            try await Task.sleep(for: .seconds(2))
            latencies.reset()
            let busyStart = cpuSeconds()
            let batchesStart = batches.count
            try await Task.sleep(for: .seconds(seconds))
            let busy = cpuSeconds() - busyStart
            let counted = max(1, batches.count - batchesStart)
            task.cancel()
            await task.value
            let extra = max(0, busy - idle)
            figures.enginePercent.append(extra / seconds * 100)
            figures.microsPerBatch.append(extra / Double(counted) * 1_000_000)
            let taken = latencies.take()
            figures.latencies += taken
            figures.firings += taken.count
        }
        await database.close()
        return figures
    }

    /// `count` rules over the markets, seeded, as people set them: 35 % price lines 1–20 % from the
    /// price, 20 % moves (3–15 % in 5–60 min), 10 % volume spikes (3–10× in 5–60 min), 10 %
    /// indicator signals (RSI 70/30, MA 5 × 20, Bollinger; 15m, 1h, 4h), 15 % premium lines
    /// (above 6–12 % or below −6…−1 %), 10 % of them held 5–30 min; a third recurring (a 10-minute cool-down), the
    /// rest one-shot; 200 rules an owner.
    static func rules(_ count: Int, over rows: [(Exchange, MarketRow)]) -> [AlertRule] {
        var random = SplitMix(seed: 0x5157)
        let signals: [IndicatorSignal] = [.rsiAbove(level: 70), .rsiBelow(level: 30), .maCrossUp(fast: 5, slow: 20), .bollingerBelow]
        return (0..<count).map { index in
            let (exchange, row) = rows[index % rows.count]
            let price = row.ticker.price
            let pick = random.unit()
            let side = random.unit() < 0.5
            var signal: IndicatorSignal?
            let (kind, value, window, hold): (AlertKind, Double, Int?, Int?) =
                switch pick {
                case ..<0.35: (side ? .above : .below, price * (1 + (side ? 1 : -1) * (0.01 + random.unit() * 0.19)), nil, nil)
                case ..<0.55: (.move, 3 + random.unit() * 12, [5, 10, 30, 60][index % 4], nil)
                case ..<0.65: (.volumeSpike, [3, 5, 10][index % 3], [5, 15, 60][index % 3], nil)
                case ..<0.75:
                    {
                        signal = signals[index % signals.count]
                        return (.indicator, 0, [15, 60, 240][index % 3], nil)
                    }()
                case ..<0.90: side ? (.premiumAbove, 6 + random.unit() * 6, nil, nil) : (.premiumBelow, -6 + random.unit() * 5, nil, nil)
                default:
                    side
                        ? (.premiumAbove, 6 + random.unit() * 6, nil, [5, 10, 30][index % 3])
                        : (.premiumBelow, -6 + random.unit() * 5, nil, [5, 10, 30][index % 3])
                }
            let recurring = index % 3 == 0
            return AlertRule(
                id: UUID().uuidString.lowercased(),
                owner: "bench-\(index / 200)",
                exchange: exchange,
                market: row.id,
                kind: kind,
                value: Decimal(string: String(format: "%.4f", value)) ?? 1,
                windowMinutes: window,
                holdMinutes: hold,
                indicator: signal,
                recurring: recurring,
                cooldownSeconds: recurring ? 600 : 0,
                createdAt: 1
            )
        }
    }

    /// Batches of changed rows the boards publish (what the engine evaluates, one at a time).
    final class BatchCounter: Sendable {
        final class Tally: Sendable {
            let value = Atomic<Int>(0)
        }
        private let tally = Tally()
        private let tasks: [Task<Void, Never>]

        init(boards: ExchangeBoards) {
            let tally = tally
            tasks = boards.all.map { _, board in
                Task {
                    for await update in board.updates() {
                        if case .changes = update { tally.value.add(1, ordering: .relaxed) }
                    }
                }
            }
        }

        var count: Int { tally.value.load(ordering: .relaxed) }
        deinit { for task in tasks { task.cancel() } }
    }

    final class LatencyLog: Sendable {
        private let list = Mutex<[Double]>([])
        func add(_ milliseconds: Double) { list.withLock { $0.append(milliseconds) } }
        func reset() { list.withLock { $0 = [] } }
        func take() -> [Double] { list.withLock { $0 } }
    }

    /// A small seeded generator (the rule mix is the same every run).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }

    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func secondsOf(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
