import Foundation
import Logging
import SiseCore

/// Everything about reaching one exchange, in one value: its default addresses (and so the flag,
/// environment and config names of their settings), its REST client and rate limit, its ticker
/// WebSocket's protocol, whether it names coins or borrows names, and where the simulator serves
/// it. The composition root, the flags, `/api/exchanges`, the simulator and the test matrix all
/// iterate `ExchangeRegistry.all`; each exchange's spec lives in its own file.
public struct ExchangeSpec: Sendable {
    public let exchange: Exchange
    /// The live REST base.
    public let restURL: URL
    /// The live ticker WebSocket.
    public let webSocketURL: URL
    /// The WebSocket path after a REST base given instead of the live one (a simulator, a proxy):
    /// `ws(s)://HOST/BASEPATH` + this.
    public let webSocketPath: String
    /// The simulator's mount: the exchange's REST base is `SIMULATOR/` + this ("" for the root).
    public let simulatorPath: String
    /// Its market list names no coin: names are borrowed from the exchanges that do.
    public let borrowsNames: Bool
    private let client: @Sendable (URL, any HTTPTransport) -> any ExchangeAPI
    private let wire: @Sendable () -> any TickerWireFormat
    /// How its WebSocket carries 호가 and 체결, when it does (nil: they are read over REST).
    private let depthWire: (@Sendable () -> any TickerWireFormat)?
    /// How its wallet status is read (from its REST base, with a key where it needs one).
    private let walletFeed: @Sendable (URL, any HTTPTransport, ExchangeKey?) -> WalletFeed
    /// How its notices are read (from its REST base; a simulator's or proxy's base carries them too).
    private let noticeFeed: @Sendable (URL, any HTTPTransport) -> NoticeFeed
    /// How a person's account is read with their read-only key (nil: Sise cannot read it yet).
    private let accountSource: (@Sendable (URL, any HTTPTransport, ExchangeKey) -> any AccountSource)?
    /// Its wallet status is only given to an API key (a read-only one will do): the settings
    /// `ID-access-key` and `ID-secret-key` exist for it.
    public let walletsNeedKey: Bool

    public init(
        exchange: Exchange,
        restURL: URL,
        webSocketURL: URL,
        webSocketPath: String,
        simulatorPath: String = "",
        borrowsNames: Bool = false,
        client: @escaping @Sendable (URL, any HTTPTransport) -> any ExchangeAPI,
        wire: @escaping @Sendable () -> any TickerWireFormat,
        depthWire: (@Sendable () -> any TickerWireFormat)? = nil,
        wallets: @escaping @Sendable (URL, any HTTPTransport, ExchangeKey?) -> WalletFeed = { _, _, _ in .notPublished },
        walletsNeedKey: Bool = false,
        accounts: (@Sendable (URL, any HTTPTransport, ExchangeKey) -> any AccountSource)? = nil,
        notices: @escaping @Sendable (URL, any HTTPTransport) -> NoticeFeed = { _, _ in .notPublished }
    ) {
        self.walletsNeedKey = walletsNeedKey
        accountSource = accounts
        noticeFeed = notices
        self.depthWire = depthWire
        walletFeed = wallets
        self.exchange = exchange
        self.restURL = restURL
        self.webSocketURL = webSocketURL
        self.webSocketPath = webSocketPath
        self.simulatorPath = simulatorPath
        self.borrowsNames = borrowsNames
        self.client = client
        self.wire = wire
    }

    public var id: String { exchange.rawValue }
    /// `--coinone-url`, `SISE_COINONE_URL`, `coinone-url` in the config file.
    public var restSetting: String { id + "-url" }
    /// `--coinone-ws-url`, `SISE_COINONE_WS_URL`, `coinone-ws-url`.
    public var webSocketSetting: String { id + "-ws-url" }

    /// Its key's settings, when its wallets need one (`upbit-access-key`, `upbit-secret-key`).
    public var keySettings: (access: String, secret: String)? { walletsNeedKey ? (id + "-access-key", id + "-secret-key") : nil }

    /// Where the exchange is reached, given the settings (nil: the live defaults). A REST base
    /// other than the live one takes its WebSocket from the same host unless one is given.
    public func endpoint(rest: URL? = nil, webSocket: URL? = nil) -> ExchangeEndpoint {
        let base = rest ?? restURL
        let derived = base == restURL ? webSocketURL : TickerStreamConfiguration.webSocketURL(forREST: base, path: webSocketPath)
        return ExchangeEndpoint(exchange: exchange, rest: base, webSocket: webSocket ?? derived)
    }

    /// The endpoint of this exchange on a simulator at `base`.
    public func simulated(at base: URL) -> ExchangeEndpoint {
        endpoint(rest: simulatorPath.isEmpty ? base : base.appendingPathComponent(simulatorPath))
    }

    /// The REST client; one that borrows names asks the `lenders` (the exchanges that name coins).
    /// Its notices at `endpoint`.
    public func notices(_ endpoint: ExchangeEndpoint, transport: any HTTPTransport) -> NoticeFeed {
        noticeFeed(endpoint.rest, transport)
    }

    /// Its wallets (입출금 현황) at `endpoint`, with `key` where it needs one.
    public func wallets(_ endpoint: ExchangeEndpoint, transport: any HTTPTransport, key: ExchangeKey? = nil) -> WalletFeed {
        walletFeed(endpoint.rest, transport, key)
    }

    /// Whether Sise reads this exchange's accounts (balances) with a person's key.
    public var readsAccounts: Bool { accountSource != nil }

    /// A person's account at `endpoint`, read with their `key`; nil where Sise cannot read it yet.
    public func account(_ endpoint: ExchangeEndpoint, transport: any HTTPTransport, key: ExchangeKey) -> (any AccountSource)? {
        accountSource?(endpoint.rest, transport, key)
    }

    public func api(_ endpoint: ExchangeEndpoint, transport: any HTTPTransport, lenders: [any ExchangeAPI] = []) -> any ExchangeAPI {
        let api = client(endpoint.rest, transport)
        return borrowsNames ? MarketNameLender(api, lenders: lenders) : api
    }

    /// The ticker stream, held to `silence` like every upstream.
    public func stream(_ endpoint: ExchangeEndpoint, silence: Duration, logger: Logger) -> TickerStream {
        TickerStream(
            configuration: .init(url: endpoint.webSocket, wire: wire(), silenceTimeout: silence),
            logger: Logger(label: "sise.\(id).stream", factory: { _ in logger.handler })
        )
    }

    /// A second WebSocket for the books and tapes someone watches, apart from the board's ticker
    /// stream (a change of what is watched never reconnects the board); nil when the exchange's
    /// stream has none here. Read four times a second: a page is sent at most that often.
    public func depthStream(_ endpoint: ExchangeEndpoint, silence: Duration, logger: Logger) -> TickerStream? {
        depthWire.map { wire in
            TickerStream(
                configuration: .init(url: endpoint.webSocket, wire: wire(), silenceTimeout: silence, readPacing: .milliseconds(250)),
                logger: Logger(label: "sise.\(id).depth", factory: { _ in logger.handler })
            )
        }
    }
}

/// Where one exchange is reached.
public struct ExchangeEndpoint: Sendable, Equatable {
    public let exchange: Exchange
    public let rest: URL
    public let webSocket: URL

    public init(exchange: Exchange, rest: URL, webSocket: URL) {
        self.exchange = exchange
        self.rest = rest
        self.webSocket = webSocket
    }
}

/// Every exchange Sise can show, in the order switches and boards list them.
public enum ExchangeRegistry {
    public static let all: [ExchangeSpec] = [.upbit, .korbit, .bithumb, .coinone]

    /// The spec of `exchange` (every `Exchange` has one: a test holds the registry to `allCases`).
    public static func spec(_ exchange: Exchange) -> ExchangeSpec {
        all.first { $0.exchange == exchange } ?? .upbit
    }

    /// The REST clients of every exchange that names its coins, for one that borrows names.
    public static func lenders(_ endpoints: [Exchange: ExchangeEndpoint], transport: any HTTPTransport) -> [any ExchangeAPI] {
        Exchange.byShare.compactMap { exchange in
            let spec = spec(exchange)
            guard !spec.borrowsNames, let endpoint = endpoints[exchange] else { return nil }
            return spec.api(endpoint, transport: transport)
        }
    }
}
