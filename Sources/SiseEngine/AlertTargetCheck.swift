import Foundation
import SiseCore

/// What the store must hold for a rule to mean something, checked once for the API and the CLI:
/// a wide rule's list names a market on its exchange, and a P&L line has a holding to read (the
/// held market, or any holding for the portfolio's total). The words are the refusal's.
public struct AlertTargetCheck: Sendable {
    let lists: WatchLists

    public init(lists: WatchLists) {
        self.lists = lists
    }

    /// nil when the rule can be kept; otherwise why not, in the reader's language.
    public func problem(_ rule: AlertRule) async throws -> (@Sendable (Language) -> String)? {
        let exchange = rule.exchange.displayName
        switch rule.target {
        case let target? where target.isList:
            guard try await lists.markets(AlertBook.ListKey(owner: rule.owner, target: target, exchange: rule.exchange)).isEmpty else { return nil }
            return { UIText.alertTargetEmpty($0, ["target": target.name($0), "exchange": exchange]) }
        case .portfolio?:
            let held = try await lists.positions(owner: rule.owner) ?? []
            guard !held.contains(where: { $0.quantity > 0 }) else { return nil }
            return { UIText.alertNothingHeld($0) }
        default:
            guard rule.kind.isPnL else { return nil }
            let held = try await lists.markets(AlertBook.ListKey(owner: rule.owner, target: .holdings, exchange: rule.exchange))
            guard !held.contains(rule.market) else { return nil }
            return { UIText.alertNotHeld($0, ["exchange": exchange]) }
        }
    }
}
