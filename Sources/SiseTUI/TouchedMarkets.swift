import SiseCore
import SiseEngine
import Synchronization

/// The markets each board changed since the screen last took them, noted as the board's
/// updates arrive — before they enter the screen's event stream, which drops its oldest events
/// when the screen falls behind. The screen's `ViewOrder` places exactly these rows again, so
/// none may be lost; a snapshot means "place everything again".
final class TouchedMarkets: Sendable {
    private struct Pending {
        var ids: Set<MarketID> = []
        var everything = false
    }

    private let pending = Mutex<[Exchange: Pending]>([:])

    func note(_ exchange: Exchange, _ update: BoardUpdate) {
        pending.withLock { all in
            switch update {
            case .changes(let rows): for row in rows { all[exchange, default: Pending()].ids.insert(row.id) }
            case .removed(let ids): all[exchange, default: Pending()].ids.formUnion(ids)
            case .snapshot: all[exchange, default: Pending()].everything = true
            case .status: break
            }
        }
    }

    /// What changed on `exchange` since the last call, and whether all of it must be placed again.
    func take(_ exchange: Exchange) -> (ids: Set<MarketID>, everything: Bool) {
        pending.withLock { all in
            let taken = all.removeValue(forKey: exchange) ?? Pending()
            return (taken.ids, taken.everything)
        }
    }
}
