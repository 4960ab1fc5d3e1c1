import Foundation
import SiseFeeds

/// `sise serve --signup open|closed`.
public enum SignupPolicy: String, Sendable, CaseIterable {
    /// Anyone; nobody but the operator; whoever holds an unused invitation (`sise users invite`).
    case open, closed, invite
}

/// Everything the HTTP side of `sise serve` can set; one typed struct, checked before anything
/// starts. (The feeds' settings belong to the composition root that builds them.)
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// The feeds are the built-in simulator: every page shows DEMO.
    public var demo: Bool
    /// Where the image cache lives (beside the database).
    public var dataDirectory: URL
    public var version: String
    /// The URL people open (`https://sise.example`): `Origin` and `Host` must match it, and
    /// cookies are `Secure` with the `__Host-` prefix when it is https. nil: the listen address.
    public var publicURL: URL?
    /// Web Push's operator contact (VAPID `sub`): `--push-subject`, else the public URL when it is
    /// https, else a `mailto:` placeholder a push service accepts.
    public var pushContact: String?
    /// Where the chat presets post (`--telegram-api-url`, `--discord-webhook-url`, `--slack-webhook-url`).
    public var chats = ChatServices()
    /// Connection caps, the header deadline and size limits, the idle timeout.
    public var limits: ConnectionLimits
    /// Favorite changes per client address per minute (0: no limit).
    public var favoriteWritesPerMinute: Int
    /// bcrypt's cost for passwords: 12 (the floor for people's passwords); tests lower it to
    /// keep their run short.
    public var passwordCost: UInt8 = 12
    /// Who may create an account: anyone (`open`) or nobody but the operator (`closed`, with
    /// `sise users add`).
    public var signup: SignupPolicy = .open
    /// `GET /metrics` takes `Authorization: Bearer` this token (from anywhere); nil: loopback only.
    public var metricsToken: String?
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`); none by default.
    public var trustedProxies: TrustedProxies = .none
    /// Pauses between a failed webhook delivery and its retries.
    public var webhookRetryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(30)]
    /// How long a replica holds a delivery it took (`--delivery-lease`): one that dies holding it
    /// hands it on when this ends.
    public var deliveryLease: Duration = .seconds(60)
    /// How long a market's 호가 and 체결 stay followed upstream after the last page showing it left.
    public var depthGrace: Duration = .seconds(10)

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        demo: Bool = false,
        dataDirectory: URL,
        version: String = "0.1.0",
        publicURL: URL? = nil,
        limits: ConnectionLimits = .init(),
        favoriteWritesPerMinute: Int = 120
    ) {
        self.host = host
        self.port = port
        self.demo = demo
        self.dataDirectory = dataDirectory
        self.version = version
        self.publicURL = publicURL
        self.limits = limits
        self.favoriteWritesPerMinute = favoriteWritesPerMinute
    }

    /// The VAPID `sub` claim in force (see `pushContact`).
    public var pushSubject: String {
        if let pushContact { return pushContact }
        if let publicURL, publicURL.scheme?.lowercased() == "https" { return publicURL.absoluteString }
        return "mailto:sise@localhost"
    }
}
