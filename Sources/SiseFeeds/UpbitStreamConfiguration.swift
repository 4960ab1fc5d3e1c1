import Foundation

/// Where and how the ticker stream connects.
public struct UpbitStreamConfiguration: Sendable {
    public enum Format: String, Sendable {
        case `default` = "DEFAULT"
        case simple = "SIMPLE"
    }

    public var url: URL
    public var format: Format
    /// WebSocket ping every this often (Upbit closes idle sockets after 60–120 s).
    public var pingInterval: Duration
    /// No frame for this long means the socket is dead even if TCP says otherwise. A text
    /// `PING` makes Upbit send a status frame every 10 s, so a healthy socket is never silent
    /// that long.
    public var silenceTimeout: Duration
    public var timing: StreamConnectionMachine.Timing
    /// Upbit allows 5 connection attempts per second per IP.
    public var maxConnectsPerSecond: Int

    public init(url: URL, format: Format = .default, pingInterval: Duration = .seconds(30),
                silenceTimeout: Duration = .seconds(15), timing: StreamConnectionMachine.Timing = .init(),
                maxConnectsPerSecond: Int = 5) {
        self.url = url
        self.format = format
        self.pingInterval = pingInterval
        self.silenceTimeout = silenceTimeout
        self.timing = timing
        self.maxConnectsPerSecond = maxConnectsPerSecond
    }

    /// The WebSocket URL for a REST base URL: http→ws, https→wss, path `/websocket/v1`.
    public static func webSocketURL(forREST base: URL) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme?.lowercased() == "http" ? "ws" : "wss"
        components.path = "/websocket/v1"
        components.query = nil
        return components.url ?? base
    }
}
