import Foundation
import SiseFeeds

/// Everything `sise serve` can set; one typed struct, checked before anything starts.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Run the built-in simulator and point every feed at it (every page shows DEMO).
    public var demo: Bool
    /// Demo only: add the simulator's listing with HTML in its names.
    public var demoHostileNames: Bool
    public var dataDirectory: URL
    public var upbitURL: URL
    /// nil: derived from `upbitURL`.
    public var upbitWebSocketURL: URL?
    public var coinGecko: CoinGeckoClient.Configuration
    /// CoinGecko calls allowed per minute, whatever the number of viewers (free tier: 10).
    public var coinGeckoCallsPerMinute: Int
    public var version: String
    /// No data frame for this long on the stream → delayed, polling, reconnect (`--silence`).
    public var silence: Duration
    /// No viewer for this long → the upstream feed closes until the next one (`--idle-after`);
    /// nil never idles.
    public var idleAfter: Duration?
    /// The URL people open (`https://sise.example`): `Origin` and `Host` must match it, and
    /// cookies are `Secure` with the `__Host-` prefix when it is https. nil: the listen address.
    public var publicURL: URL?
    /// Connection caps, the header deadline and size limits, the idle timeout.
    public var limits: ConnectionLimits
    /// Favorite changes per client address per minute (0: no limit).
    public var favoriteWritesPerMinute: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, demo: Bool = false, demoHostileNames: Bool = false,
                dataDirectory: URL = ServerConfiguration.defaultDataDirectory(),
                upbitURL: URL = URL(string: "https://api.upbit.com")!, upbitWebSocketURL: URL? = nil,
                coinGecko: CoinGeckoClient.Configuration = .init(), coinGeckoCallsPerMinute: Int = 10,
                version: String = "0.1.0", silence: Duration = .seconds(5), idleAfter: Duration? = .seconds(60), publicURL: URL? = nil, limits: ConnectionLimits = .init(), favoriteWritesPerMinute: Int = 120) {
        self.favoriteWritesPerMinute = favoriteWritesPerMinute
        self.limits = limits
        self.publicURL = publicURL
        self.silence = silence
        self.idleAfter = idleAfter
        self.host = host
        self.port = port
        self.demo = demo
        self.demoHostileNames = demoHostileNames
        self.dataDirectory = dataDirectory
        self.upbitURL = upbitURL
        self.upbitWebSocketURL = upbitWebSocketURL
        self.coinGecko = coinGecko
        self.coinGeckoCallsPerMinute = coinGeckoCallsPerMinute
        self.version = version
    }

    /// `$XDG_DATA_HOME/sise`, else `~/.local/share/sise`.
    public static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("sise")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/sise")
    }
}
