import Foundation
import SiseCore

/// How a live board runs.
public struct LiveBoardConfiguration: Sendable {
    public var exchange: Exchange
    /// The quote markets on the board (and in the stream subscription).
    public var quotes: [QuoteCurrency]
    /// Changes are gathered this long before subscribers are told (newest state wins).
    public var coalesceWindow: Duration
    /// While the stream is down, REST polls `/v1/ticker/all` this often (never more than 1/s).
    public var pollInterval: Duration
    /// The market list (listings, delistings, warnings, ticks) is reloaded this often.
    public var marketRefreshInterval: Duration
    /// With no viewer for this long the upstream stream and polling stop (state `idle`) until
    /// the next viewer; nil never idles (the TUI and `sise watch` are viewers by definition).
    public var idleAfter: Duration?
    /// With `idleAfter` set: start idle (no upstream connection, no REST) until the first
    /// viewer — for the exchanges a server runs beside its default one.
    public var startsIdle: Bool

    public init(
        exchange: Exchange,
        quotes: [QuoteCurrency] = QuoteCurrency.allCases,
        coalesceWindow: Duration = .milliseconds(100),
        pollInterval: Duration = .seconds(1),
        marketRefreshInterval: Duration = .seconds(300),
        idleAfter: Duration? = nil,
        startsIdle: Bool = false
    ) {
        self.idleAfter = idleAfter
        self.startsIdle = startsIdle && idleAfter != nil
        self.exchange = exchange
        self.quotes = quotes
        self.coalesceWindow = coalesceWindow
        self.pollInterval = max(pollInterval, .seconds(1))
        self.marketRefreshInterval = marketRefreshInterval
    }
}
