import Foundation
import SiseCore
import SiseEngine
import SiseStore
import Synchronization

/// Live P&L for the pages that show a portfolio (`{"type":"portfolio","watch":true}` on `/ws`):
/// at most once a second, each watching owner's portfolio is valued at the boards' prices and
/// sent as `{"type":"portfolio","positions":[…],"totals":{…}}` to its pages — only when it changed.
/// Transactions are read from the store once per change, not per second.
final class PortfolioPush: Sendable {
    private let store: PortfolioStore
    private let boards: ExchangeBoards
    private let ledgers = Mutex<[String: [PortfolioTransaction]]>([:])
    static let interval = Duration.seconds(1)

    init(store: PortfolioStore, boards: ExchangeBoards) {
        self.store = store
        self.boards = boards
    }

    /// The owner's transactions changed: read them again and tell its watching pages now.
    func changed(_ owner: String, pages: [BoardClient]) async {
        ledgers.withLock { _ = $0.removeValue(forKey: owner) }
        await send(owner, to: pages.filter(\.watchesPortfolio))
    }

    /// One round: every watching page gets its owner's portfolio when it differs from the last
    /// one it was sent.
    func round(_ watchers: [BoardClient]) async {
        let owners = Dictionary(grouping: watchers, by: \.deviceID)
        ledgers.withLock { cached in cached = cached.filter { owners[$0.key] != nil } }
        for (owner, pages) in owners { await send(owner, to: pages) }
    }

    private func send(_ owner: String, to pages: [BoardClient]) async {
        guard !pages.isEmpty, let transactions = await ledger(owner), let report = try? boards.portfolio(transactions) else { return }
        let text = "{\"type\":\"portfolio\"," + JSONText.encode(report).dropFirst()
        for page in pages { page.portfolio(text) }
    }

    private func ledger(_ owner: String) async -> [PortfolioTransaction]? {
        if let cached = ledgers.withLock({ $0[owner] }) { return cached }
        guard let fresh = try? await store.transactions(owner: owner) else { return nil }
        ledgers.withLock { $0[owner] = fresh }
        return fresh
    }
}
