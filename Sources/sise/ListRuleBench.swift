import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise bench --list-rules 1000,10000,100000 --owners 8`: wide alert rules at scale — what an
/// owner's `favorites` rules cost when each one watches every starred market. Per N (rule ×
/// market pairs) on the default exchange (Upbit): `--owners` owners (more when the pairs would pass an owner's bound of
/// `AlertBook.pairsPerOwner`) star up to 440 of Upbit's markets each (different ones) and
/// hold as many `maCrossUp` rules on their favorites (1-minute candles, each with its own fast
/// average, the long one 120) as N asks, added past the API's caps; the real `AlertEngine` runs on
/// the demo simulator. Printed: the pairs the engine armed, the series seeded and how long that
/// took, Upbit candle calls while seeding and in the quiet minute after, CPU (% of a core beyond
/// the boards alone) and RSS, and how long another owner's rule takes to be stored and armed
/// (what `POST /api/alerts` waits for) while the flood seeds.
enum ListRuleBench {
    static let favoritesPerOwner = 440

    static func run(
        pairs counts: [Int],
        owners: Int,
        seconds: Double,
        upstreams: LiveUpstreams,
        premium: PremiumFeed,
        simulator: URL,
        transport: any HTTPTransport
    ) async throws {
        let boards = upstreams.boards
        for (_, board) in boards.all { board.viewerArrived() }
        let deadline = ContinuousClock.now + .seconds(60)
        while boards.all.contains(where: { $0.board.snapshot.status.state != .live || $0.board.snapshot.rows.isEmpty }) {
            guard ContinuousClock.now < deadline else { throw CLIFailure.usage("sise: the boards never went live") }
            try await Task.sleep(for: .milliseconds(200))
        }
        let exchange = Exchange.default
        guard let board = boards[exchange] else { throw CLIFailure.usage("sise: no board for \(exchange.displayName)") }
        let markets = board.snapshot.rows.keys.sorted()
        print(
            "wide alert rules: \(owners) owners, up to \(favoritesPerOwner) favorites each of \(exchange.displayName)'s \(markets.count) markets; \(Int(seconds)) s steady"
        )
        print(
            "pairs asked | armed | series | seeding | candle calls seeding / steady | CPU seeding / steady (% of a core) | RSS | other owner's rule: stored + armed p50 / max"
        )
        for count in counts {
            let line = try await measure(
                count,
                // Enough owners that the pairs fit under each owner's bound (`AlertBook.pairsPerOwner`).
                owners: max(owners, (count + AlertBook.pairsPerOwner - 1) / AlertBook.pairsPerOwner),
                markets: markets,
                seconds: seconds,
                boards: boards,
                premium: premium,
                simulator: simulator,
                transport: transport
            )
            print(line)
        }
        for (_, board) in boards.all { board.viewerLeft() }
    }

    private static func measure(
        _ pairs: Int,
        owners: Int,
        markets: [MarketID],
        seconds: Double,
        boards: ExchangeBoards,
        premium: PremiumFeed,
        simulator: URL,
        transport: any HTTPTransport
    ) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-list-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase.open(directory: directory)
        let favorites = StoredFavorites(database: database)
        let store = AlertStore(database: database, maxRules: 1_000_000)
        let starred = min(favoritesPerOwner, markets.count)
        let rulesPerOwner = max(1, (pairs + owners * starred - 1) / (owners * starred))
        var rules: [AlertRule] = []
        for owner in 0..<owners {
            // Each owner's own window of the markets (they overlap, as people's favorites do).
            for index in 0..<starred {
                let market = markets[(owner * 37 + index) % markets.count]
                _ = try await favorites.add(owner: "owner-\(owner)", item: market.code, limit: 10_000)
            }
            for rule in 0..<rulesPerOwner {
                rules.append(
                    AlertRule(
                        id: UUID().uuidString.lowercased(),
                        owner: "owner-\(owner)",
                        exchange: Exchange.default,
                        market: AlertTarget.favorites.market,
                        kind: .indicator,
                        value: 0,
                        windowMinutes: 1,
                        indicator: .maCrossUp(fast: 1 + rule % 60, slow: 120),
                        target: .favorites,
                        recurring: true,
                        cooldownSeconds: 60,
                        createdAt: 1
                    )
                )
            }
        }
        try await store.addMany(rules)
        var quiet = Logger(label: "bench")
        quiet.logLevel = .critical
        let lists = WatchLists(database: database)
        let engine = AlertEngine(boards: boards, store: store, premium: premium, lists: lists, logger: quiet) { _ in }
        // The boards alone first: the CPU the engine adds is measured against it.
        let idleStart = AlertBench.cpuSeconds()
        try await Task.sleep(for: .seconds(5))
        let idlePerSecond = (AlertBench.cpuSeconds() - idleStart) / 5
        let rssBefore = AlertBench.residentBytes()
        let callsBefore = try await candleCalls(simulator, transport)
        let cpuBefore = AlertBench.cpuSeconds()
        let started = ContinuousClock.now
        let task = Task { try? await engine.run() }
        while !engine.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        // Another owner adds one rule now and then while the flood seeds.
        var waits: [Double] = []
        while !engine.indicatorsSeeded, ContinuousClock.now - started < .seconds(600) {
            let rule = AlertRule(
                id: UUID().uuidString.lowercased(),
                owner: "someone-else",
                exchange: Exchange.default,
                market: markets[waits.count % markets.count],
                kind: .above,
                value: 1_000_000_000_000,
                createdAt: 1
            )
            let asked = ContinuousClock.now
            try await store.add(rule)
            await engine.upsert(rule)
            waits.append(AlertBench.secondsOf(ContinuousClock.now - asked) * 1_000)
            try await Task.sleep(for: .milliseconds(500))
        }
        let seeding = ContinuousClock.now - started
        let seedingSeconds = max(0.001, AlertBench.secondsOf(seeding))
        let cpuSeeding = (AlertBench.cpuSeconds() - cpuBefore - idlePerSecond * seedingSeconds) / seedingSeconds * 100
        let callsSeeding = try await candleCalls(simulator, transport) - callsBefore
        let steadyCalls = try await candleCalls(simulator, transport)
        let steadyStart = AlertBench.cpuSeconds()
        try await Task.sleep(for: .seconds(seconds))
        let cpuSteady = (AlertBench.cpuSeconds() - steadyStart - idlePerSecond * seconds) / seconds * 100
        let callsSteady = try await candleCalls(simulator, transport) - steadyCalls
        let rss = AlertBench.residentBytes() - rssBefore
        let armed = engine.armedPairs
        let series = engine.indicatorSeries
        task.cancel()
        await task.value
        await database.close()
        let sorted = waits.sorted()
        let p50 = sorted.isEmpty ? "-" : String(format: "%.1f ms", sorted[sorted.count / 2])
        let worst = sorted.last.map { String(format: "%.1f ms", $0) } ?? "-"
        return "\(pairs) (\(owners) × \(rulesPerOwner) rules × \(starred) favorites) | \(armed) | \(series) | "
            + String(format: "%.1f s", seedingSeconds) + " | \(callsSeeding) / \(callsSteady) | "
            + String(format: "%.1f %% / %.1f %%", max(0, cpuSeeding), max(0, cpuSteady)) + " | "
            + String(format: "%.0f MB", Double(rss) / 1_048_576) + " | \(p50) / \(worst)"
    }

    /// The default exchange's candle requests the simulator has answered (`/_sim/stats`, its `candles` group).
    static func candleCalls(_ simulator: URL, _ transport: any HTTPTransport) async throws -> Int {
        var components = URLComponents(url: simulator.appendingPathComponent("_sim/stats"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "exchange", value: Exchange.default.rawValue)]
        guard let url = components?.url else { return 0 }
        let answer = try await transport.get(url, headers: [])
        let stats = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return ((stats?[Exchange.default.rawValue] as? [String: Any])?["candles"] as? Int) ?? 0
    }
}
