import Foundation
import SiseCore
import SiseFeeds
import SiseStore

/// The server's history syncs: one at a time per owner (a second ask while one runs is told how
/// far it is), each walking every connected exchange whose history Sise reads, in turn; how far
/// it has come is kept for the page to ask (`status`), and the owner's pages are told when the
/// portfolio changed.
public actor AccountSyncJobs {
    /// What the page shows of an owner's sync.
    public struct Status: Sendable, Encodable, Equatable {
        public enum State: String, Sendable, Encodable { case idle, running, done, failed }
        public var state: State
        /// The exchange being walked (running), or the last one.
        public var exchange: Exchange?
        public var fraction: Double
        public var orders: Int
        public var calls: Int
        public var outcomes: [AccountHistorySync.Outcome]
        /// The state in the reader's words (progress, what was added, or what went wrong).
        public var message: String?
        /// The exchanges whose history the owner's kept keys let Sise read.
        public var exchanges: [Exchange] = []

        static let idle = Status(state: .idle, exchange: nil, fraction: 0, orders: 0, calls: 0, outcomes: [], message: nil)
    }

    private let desk: AccountDesk
    private let sync: AccountHistorySync
    private let changed: @Sendable (String) async -> Void
    private var statuses: [String: Status] = [:]
    private var running: Set<String> = []

    public init(desk: AccountDesk, sync: AccountHistorySync, changed: @escaping @Sendable (String) async -> Void = { _ in }) {
        self.desk = desk
        self.sync = sync
        self.changed = changed
    }

    public func status(owner: String) async -> Status {
        var status = statuses[owner] ?? .idle
        status.exchanges = await readable(owner)
        return status
    }

    /// Starts `owner`'s sync unless one runs; its status either way.
    public func start(owner: String, language: Language) async -> Status {
        guard !running.contains(owner) else { return await status(owner: owner) }
        running.insert(owner)
        statuses[owner] = Status(state: .running, exchange: nil, fraction: 0, orders: 0, calls: 0, outcomes: [], message: nil)
        Task { await self.run(owner: owner, language: language) }
        return await status(owner: owner)
    }

    /// One scheduled round: every owner with a kept key whose history Sise reads, one after
    /// another — a key the exchange refused for a reason the person must fix (`needsThePerson`)
    /// is left out until they connect it again or sync by hand. Returns the owners synced.
    @discardableResult
    public func scheduledRound(language: Language = .ko) async throws -> Int {
        var synced = 0
        for (owner, keys) in try await desk.keys.everyOwner().sorted(by: { $0.key < $1.key }) {
            try Task.checkCancellation()
            guard keys.contains(where: { !($0.problem?.needsThePerson ?? false) }), !running.contains(owner) else { continue }
            running.insert(owner)
            await run(owner: owner, language: language, skipping: Set(keys.filter { $0.problem?.needsThePerson ?? false }.map(\.exchange)))
            synced += 1
        }
        return synced
    }

    /// The exchanges whose history `owner`'s kept keys let Sise read, in the switch's order.
    private func readable(_ owner: String) async -> [Exchange] {
        var exchanges: [Exchange] = []
        for exchange in Exchange.allCases.sorted(by: { $0.listOrder < $1.listOrder }) {
            if (try? await desk.historySource(owner: owner, exchange: exchange)) != nil { exchanges.append(exchange) }
        }
        return exchanges
    }

    private func run(owner: String, language: Language, skipping: Set<Exchange> = []) async {
        var outcomes: [AccountHistorySync.Outcome] = []
        var current: Exchange?
        do {
            for exchange in await readable(owner) where !skipping.contains(exchange) {
                current = exchange
                guard let source = try await desk.historySource(owner: owner, exchange: exchange) else { continue }
                let outcome = try await sync.sync(owner: owner, source: source) { progress in
                    Task { await self.progress(owner, exchange, progress, language) }
                }
                outcomes.append(outcome)
                // It read: whatever the exchange said of the key before is past.
                try? await desk.keys.checked(owner: owner, exchange: exchange, problem: nil)
                await changed(owner)
            }
            let words = outcomes.map { AccountText.syncDone(language, Self.values($0)) }
            statuses[owner] = Status(
                state: .done,
                exchange: outcomes.last?.exchange,
                fraction: 1,
                orders: outcomes.reduce(0) { $0 + $1.orders },
                calls: outcomes.reduce(0) { $0 + $1.calls },
                outcomes: outcomes,
                message: words.isEmpty ? AccountText.keyNone(language) : words.joined(separator: " ")
            )
        } catch {
            let exchange = current ?? statuses[owner]?.exchange
            let message: String
            if let error = error as? FeedError {
                message = error.keyProblem.map { $0.message(language, exchange: exchange ?? .default) } ?? error.message(language)
                // The key's list says what the exchange said of it.
                if let exchange, let problem = error.keyProblem { try? await desk.keys.checked(owner: owner, exchange: exchange, problem: problem) }
            } else {
                message = (error as? StoreError)?.message(language) ?? String(describing: type(of: error))
            }
            statuses[owner] = Status(
                state: .failed,
                exchange: exchange,
                fraction: statuses[owner]?.fraction ?? 0,
                orders: statuses[owner]?.orders ?? 0,
                calls: statuses[owner]?.calls ?? 0,
                outcomes: outcomes,
                message: message
            )
            if !outcomes.isEmpty { await changed(owner) }
        }
        running.remove(owner)
    }

    private func progress(_ owner: String, _ exchange: Exchange, _ progress: AccountHistoryWalk.Progress, _ language: Language) {
        guard running.contains(owner) else { return }
        let words = AccountText.syncRunning(
            language,
            [
                "exchange": exchange.displayName, "percent": String(Int(progress.fraction * 100)),
                "orders": NumberText.grouped(Double(progress.orders), decimals: 0),
            ]
        )
        statuses[owner] = Status(
            state: .running,
            exchange: exchange,
            fraction: progress.fraction,
            orders: progress.orders,
            calls: progress.calls,
            outcomes: statuses[owner]?.outcomes ?? [],
            message: words
        )
    }

    /// An outcome's figures for `AccountText.syncDone`.
    public static func values(_ outcome: AccountHistorySync.Outcome) -> [String: String] {
        [
            "exchange": outcome.exchange.displayName, "orders": NumberText.grouped(Double(outcome.orders), decimals: 0),
            "added": NumberText.grouped(Double(outcome.added), decimals: 0), "calls": NumberText.grouped(Double(outcome.calls), decimals: 0),
            "seconds": String(format: "%.1f", outcome.seconds),
        ]
    }
}
