import Foundation
import SiseCore

/// A live ticker feed, as the engine sees it. `UpbitTickerStream` is the real one.
public protocol TickerStreaming: Sendable {
    /// Connects and reconnects until cancelled, reporting through `events`; `codes` is asked
    /// for the full list before every (re)subscription.
    func run(codes: @escaping @Sendable () async -> [MarketID],
             events: @escaping @Sendable (TickerStreamEvent) async -> Void) async
    /// The code list changed: resubscribe with the full new list.
    func resubscribe()
    /// Whether the exchange's REST side currently answers (shapes the reconnect backoff).
    func hostIsHealthy(_ healthy: Bool)
}

extension UpbitTickerStream: TickerStreaming {}
