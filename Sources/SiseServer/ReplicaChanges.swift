import Foundation
import ServiceLifecycle
import SiseEngine
import SiseStore

/// What the other replicas changed, applied here: their favorites and portfolio writes reach
/// this replica's open pages (and the wide alert rules that follow them), their alert rules this
/// replica's engine. Idle with SQLite (one process).
struct ReplicaChanges: Service {
    let feed: ChangeFeed
    let hub: BoardSocketHub
    let alerts: AlertEngine
    let store: AlertStore

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await feed.listen { kind, owner in
                switch kind {
                case .favorites:
                    await hub.favoritesChanged(owner)
                    await alerts.listsChanged(owner: owner)
                case .portfolio:
                    await hub.portfolioChanged(owner)
                    await alerts.listsChanged(owner: owner)
                case .alerts:
                    // The owner's rules as they now stand: added and changed ones armed, removed ones dropped.
                    guard let rules = try? await store.rules(owner: owner) else { return }
                    await alerts.replace(owner: owner, with: rules)
                }
            }
        }
        // SQLite: nothing to listen to; stay until the server stops.
        if !feed.isShared { try? await gracefulShutdown() }
    }
}
