import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// Prints the terminal's alerts as they fire (an `AlertEngine` over the boards, recording the
/// firings as the server does) and sends them to the terminal's webhooks and chats through the
/// server's queue, until the count or duration is reached (a delivery still waiting then is made
/// by the next run: the queue is in the store).
struct AlertWatchService: Service {
    let boards: ExchangeBoards
    /// The exchanges' 호가/체결 feeds (체결강도 alerts read their tapes).
    let depthFeeds: [Exchange: DepthFeed]
    let store: AlertStore
    let premium: PremiumFeed?
    let globalPrices: GlobalPrices?
    let printer: WatchPrinter
    let count: Int?
    let duration: Duration?
    /// 변동 알림: the history's looks, told as the alerts are (nil: no topic is on).
    let changes: ChangeWatch?
    let webhooks: WebhookDispatcher
    /// The lists wide rules follow (the data directory's favorites and holdings).
    let lists: WatchLists?
    let clock: WallClock
    let pace: any MonotonicClock
    let logger: Logger

    func run() async throws {
        let (fired, sink) = AsyncStream.makeStream(of: AlertFiring.self)
        let engine = AlertEngine(
            boards: boards,
            depth: depthFeeds,
            store: store,
            premium: premium,
            globalPrices: globalPrices,
            lists: lists,
            listRefresh: 5,
            owner: LocalData.owner,
            clock: clock,
            pace: pace,
            logger: logger
        ) { sink.yield($0) }
        let recorder = changes.map { changes in
            let teller = ChangeTeller(store: changes.audience, logger: logger) { sink.yield($0) }
            return MarketEventRecorder(
                boards: boards,
                apis: changes.apis,
                wallets: changes.wallets,
                store: changes.events,
                interval: changes.interval,
                clock: clock,
                pace: pace,
                logger: logger
            ) { await teller.tell($0) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await engine.run() }
            if let recorder, let wallets = changes?.wallets {
                group.addTask { try await wallets.run() }
                group.addTask { try await recorder.run() }
            }
            group.addTask { try await webhooks.run() }
            group.addTask {
                var printed = 0
                for await firing in fired {
                    printer.alert(firing)
                    webhooks.enqueue(firing)
                    printed += 1
                    if let count, printed >= count { return }
                }
            }
            if let duration { group.addTask { try await Task.sleep(for: duration) } }
            group.addTask { try await gracefulShutdown() }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// What the terminal's 변동 알림 need: the exchanges' clients and wallets, the history's store and
/// who is told (the local owner), and how often to look.
struct ChangeWatch {
    let apis: [Exchange: any ExchangeAPI]
    let wallets: WalletService
    let events: MarketEventStore
    let audience: ChangeAlertStore
    let interval: Duration
}
