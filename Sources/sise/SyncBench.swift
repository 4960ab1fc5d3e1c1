import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise bench --sync N`: an Upbit account with N closed orders over five years on the demo
/// simulator (which verifies every signed call and holds each key to 30 private calls a second),
/// synced into a fresh SQLite store — the walk's time and calls beside the least time Upbit's
/// budget allows for them — then synced again (it must add nothing). Medians of `runs`.
enum SyncBench {
    static func run(orders count: Int, runs: Int, settings: Settings) async throws {
        var logger = Logger(label: "sise.bench")
        logger.logLevel = .error
        let root = try await Root.live(settings, demo: .init(), logger: logger)
        guard let simulator = root.simulator else { return }
        let outcome: Result<[Double], any Error>
        do { outcome = .success(try await measure(count, runs: runs, root: root, simulator: simulator.baseURL)) } catch { outcome = .failure(error) }
        await root.shutdown()
        let sorted = try outcome.get().sorted()
        print(String(format: "median %.1f s over %d runs", sorted.dropFirst(sorted.count / 2).first ?? 0, runs))
    }

    private static func measure(_ count: Int, runs: Int, root: Root, simulator: URL) async throws -> [Double] {
        var seconds: [Double] = []
        for run in 0..<runs {
            let access = "bench-sync-\(run)-\(UUID().uuidString.prefix(8))"
            let secret = "bench-sync-secret-0123456789"
            let body =
                #"{"exchange":"upbit","access":"\#(access)","secret":"\#(secret)","balances":[],"history":{"orders":\#(count),"days":1825,"seed":\#(run + 1)}}"#
            let answer = try await root.transport.post(
                simulator.appendingPathComponent("_sim/accounts"),
                headers: [("Content-Type", "application/json")],
                body: Data(body.utf8)
            )
            guard answer.status == 200, let key = ExchangeKey(access: access, secret: secret),
                let source = root.account(.upbit, key: key) as? any AccountHistorySource
            else { throw CLIFailure(code: .unexpected, message: "sise bench: the simulator refused the key (\(answer.status))") }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-sync-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try AppDatabase.open(directory: directory)
            let sync = AccountHistorySync(portfolio: PortfolioStore(database: database, clock: root.clock), clock: root.clock)
            let first = try await sync.sync(owner: "bench", source: source, since: root.clock.now - 1_826 * 86_400_000)
            let again = try await sync.sync(owner: "bench", source: source, since: root.clock.now - 1_826 * 86_400_000)
            await database.close()
            seconds.append(first.seconds)
            print(
                String(
                    format: "run %d: %d orders, %d kept, %d calls in %.1f s (Upbit's budget allows it in %.1f s: %.2f×); again: %d added of %d",
                    run + 1,
                    first.orders,
                    first.added,
                    first.calls,
                    first.seconds,
                    first.boundSeconds,
                    first.seconds / max(first.boundSeconds, 0.001),
                    again.added,
                    again.orders
                )
            )
        }
        return seconds
    }
}
