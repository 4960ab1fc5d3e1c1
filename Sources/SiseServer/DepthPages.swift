import SiseCore
import Synchronization

/// The pages on a market's page and the 호가/체결 push that serves them: the depth rounds go over
/// these pages, not over every page of the hub.
final class DepthPages: Sendable {
    /// Attached once the server's context exists.
    private let push = Mutex<DepthPush?>(nil)
    private let pages = Mutex<[ObjectIdentifier: BoardClient]>([:])

    func attach(_ depth: DepthPush) {
        push.withLock { $0 = depth }
    }

    /// The page left: it is in no round any more.
    func forget(_ client: BoardClient) {
        pages.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// A page opened a market's page (or left it: no market): its 호가 and 체결 now, then as they
    /// change. A market the exchange does not list is refused, as every face refuses it.
    func watch(_ client: BoardClient, exchange: String?, market: String?, language: Language) async {
        guard let push = push.withLock({ $0 }) else { return }
        guard let market else {
            client.watchDepth(nil)
            forget(client)
            return
        }
        do {
            let key = try push.key(exchange: exchange, market: market, language: language)
            client.watchDepth(key)
            pages.withLock { $0[ObjectIdentifier(client)] = client }
            await push.first(key, to: client)
        } catch {
            client.watchDepth(nil)
            forget(client)
            client.reject(error, language)
        }
    }

    /// A round every `DepthPush.interval` until cancelled.
    func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: DepthPush.interval)
            if Task.isCancelled { return }
            guard let push = push.withLock({ $0 }) else { continue }
            await push.round(pages.withLock { Array($0.values) })
        }
    }
}
