import Foundation

/// Where and how the ticker stream connects.
public struct TickerStreamConfiguration: Sendable {
    public var url: URL
    /// The exchange's wire protocol.
    public var wire: any TickerWireFormat
    /// The largest frame accepted (Binance's all-market frames run to hundreds of KB).
    public var maxFrameSize: Int = 1 << 20
    /// A text `PING` every this often (Upbit closes idle sockets after 60–120 s); WebSocket ping
    /// frames go out more often, at half the silence bound.
    public var pingInterval: Duration
    /// No data frame for this long while a full board is subscribed means the feed is stalled,
    /// even if TCP (or the socket's pongs) say otherwise: the board turns delayed, REST polling
    /// starts and the socket is replaced. `--silence` on `serve`, `tui` and `watch`; default 5 s.
    public var silenceTimeout: Duration
    public var timing: StreamConnectionMachine.Timing
    /// Upbit allows 5 connection attempts per second per IP.
    public var maxConnectsPerSecond: Int
    /// The socket is read when the consumer collects (a board, right before each flush) and
    /// otherwise at most once per this interval; nil reads every frame as it lands.
    public var readPacing: Duration?

    public init(
        url: URL,
        wire: any TickerWireFormat = UpbitTickerWire(),
        pingInterval: Duration = .seconds(30),
        silenceTimeout: Duration = .seconds(5),
        timing: StreamConnectionMachine.Timing = .init(),
        maxConnectsPerSecond: Int = 5,
        readPacing: Duration? = .milliseconds(250)
    ) {
        self.readPacing = readPacing
        self.url = url
        self.wire = wire
        self.pingInterval = pingInterval
        self.silenceTimeout = silenceTimeout
        self.timing = timing
        self.maxConnectsPerSecond = maxConnectsPerSecond
    }

    /// The WebSocket URL for a REST base URL: http→ws, https→wss, `path` after the base's own
    /// path (`/websocket/v1` for Upbit and Bithumb, `/v2/public` for Korbit).
    public static func webSocketURL(forREST base: URL, path: String = "/websocket/v1") -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme?.lowercased() == "http" ? "ws" : "wss"
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.query = nil
        return components.url ?? base
    }
}
