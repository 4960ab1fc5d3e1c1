import Logging
import SiseStore
import Synchronization

/// Where the throttles and rate limits keep their counts: in memory (one process: SQLite, or a
/// single replica), or in the store that replicas share (PostgreSQL), so a limit is one budget
/// across every replica rather than one per replica.
protocol TallyBook: Sendable {
    /// Reads `keys`, lets `body` change them (nil deletes one), keeps the result; atomically.
    func update<T: Sendable>(_ keys: [String], now: Int64, _ body: @escaping @Sendable (inout [String: Tally]) -> T) async -> T
    /// Keys kept (for tests and metrics).
    func keptKeys() async -> Int
}

/// Counts in this process, at most `capacity` keys (the least recently changed go first, down to
/// three quarters, when a flood of made-up logins and addresses fills it).
final class MemoryTallies: TallyBook {
    private let tallies = Mutex<[String: Tally]>([:])
    private let capacity: Int

    init(capacity: Int = 300_000) {
        self.capacity = capacity
    }

    func update<T: Sendable>(_ keys: [String], now: Int64, _ body: @escaping @Sendable (inout [String: Tally]) -> T) async -> T {
        tallies.withLock { all in
            var some: [String: Tally] = [:]
            for key in keys { some[key] = all[key] }
            let result = body(&some)
            for key in keys { all[key] = some[key] }
            if all.count > capacity {
                let kept = all.sorted { $0.value.last > $1.value.last }.prefix(capacity * 3 / 4)
                all = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
            return result
        }
    }

    func keptKeys() async -> Int { tallies.withLock { $0.count } }
}

/// Counts in the shared store. Should the store not answer, the counts of this process stand in
/// (a limit still holds, per replica) rather than letting everything through.
struct StoreTallies: TallyBook {
    let store: ThrottleTallies
    let fallback: MemoryTallies
    let logger: Logger

    func update<T: Sendable>(_ keys: [String], now: Int64, _ body: @escaping @Sendable (inout [String: Tally]) -> T) async -> T {
        do {
            return try await store.update(keys, now: now, body)
        } catch {
            logger.warning("throttle counts could not be read from the store; this replica's stand in", metadata: ["error": "\(error)"])
            return await fallback.update(keys, now: now, body)
        }
    }

    func keptKeys() async -> Int { (try? await store.count()) ?? 0 }
}
