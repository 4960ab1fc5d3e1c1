import Foundation
import SiseCore

/// A live ticker feed, as the engine sees it. `TickerStream` is the real one.
public protocol TickerStreaming: Sendable {
    /// Connects and reconnects until cancelled, reporting through `events`; `codes` is asked
    /// for the full list before every (re)subscription. `accept` may take a ticker on the
    /// socket's thread as it is read (returning true), without waiting for anything; a ticker it
    /// leaves (false) comes through `events`.
    func run(
        codes: @escaping @Sendable () async -> [MarketID],
        events: @escaping @Sendable (TickerStreamEvent) async -> Void,
        accept: @escaping @Sendable (Ticker) -> Bool
    ) async
    /// The code list changed: resubscribe with the full new list.
    func resubscribe()
    /// Whether the exchange's REST side currently answers (shapes the reconnect backoff).
    func hostIsHealthy(_ healthy: Bool)
    /// Reads what the connection holds now and returns once it has been handed on, or after
    /// `patience` when there was nothing (a consumer calls it right before it publishes).
    func collect(waitingAtMost patience: Duration) async
    /// Reads of the socket so far.
    var socketReads: Int { get }
}

extension TickerStream: TickerStreaming {}

extension TickerStreaming {
    /// A feed that hands each frame on as it lands has nothing to collect.
    public func collect(waitingAtMost patience: Duration) async {}
    public var socketReads: Int { 0 }

    /// Every event, tickers included, through `events`.
    public func run(
        codes: @escaping @Sendable () async -> [MarketID],
        events: @escaping @Sendable (TickerStreamEvent) async -> Void
    ) async {
        await run(codes: codes, events: events, accept: { _ in false })
    }
}
