import Foundation
import SiseCore

/// What concerns one owner's pages (a device or an account): its favorites, its portfolio, its alerts.
extension BoardSocketHub {
    /// An owner's (a device's or an account's) favorites changed: every page of it is told
    /// the new list (stars follow within a batch), and its favorites-only views start over.
    func favoritesChanged(_ owner: String) async {
        let pages = pages(of: owner)
        if !pages.isEmpty, let list = try? await favorites.list(owner: owner),
            let message = try? BoardSocketMessage.encode(BoardSocketMessage.Favorites(favorites: list))
        {
            for page in pages { page.favoritesChanged(message) }
        }
        let affected = pages.filter { $0.view?.parameters.favoritesOnly == true }
        for client in affected {
            if let view = client.view { await setView(client, parameters: view.parameters, language: view.language) }
        }
    }

    /// The open pages of an owner (a device or an account).
    func pages(of owner: String) -> [BoardClient] {
        clients.withLock { $0.pages.values.filter { $0.deviceID == owner } }
    }

    /// An owner's transactions changed: its pages that show the portfolio get it now.
    func portfolioChanged(_ owner: String) async {
        await portfolioPush.changed(owner, pages: pages(of: owner))
    }

    /// A page opened (or left) the portfolio: it gets the portfolio now, then as prices move.
    func watchPortfolio(_ client: BoardClient, _ on: Bool) async {
        client.watchPortfolio(on)
        if on { await portfolioPush.changed(client.deviceID, pages: [client]) }
    }

    /// An alert fired for `owner`: every open page of it is told.
    func notify(_ owner: String, message: String) {
        for page in pages(of: owner) { page.notice(message) }
    }

    func pushPortfolios() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: PortfolioPush.interval)
            // Also with no watcher: the round forgets the ledgers of owners who left.
            await portfolioPush.round(clients.withLock { $0.pages.values.filter(\.watchesPortfolio) })
        }
    }
}
