import Foundation
import SiseCore

/// What a ticker stream (any exchange's) reports to its owner.
public enum TickerStreamEvent: Sendable, Equatable {
    case connecting(attempt: Int)
    /// Connected and subscribed.
    case connected
    case ticker(Ticker)
    /// Last prices by base symbol (`BTC`) with the frame's event time (epoch ms): a stream that
    /// sends many pairs at once (Binance's all-market mini-ticker).
    case prices([String: Double], at: Int64)
    /// The connection ended; the stream will reconnect by itself.
    case disconnected(FeedError)
    /// Upbit answered the request with an error frame (`NO_TICKET`, `INVALID_PARAM` …).
    case rejected(name: String, message: String)
    /// A 호가 or 체결 frame (a depth stream's, `DepthStreamWire`).
    case depth(DepthFrame)
    /// A well-formed frame that carries no ticker (`{"status":"UP"}` and the like).
    case heartbeat
    /// A frame that was not a usable message was skipped.
    case garbage
}
