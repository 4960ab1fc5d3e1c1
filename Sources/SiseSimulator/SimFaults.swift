import Foundation

/// Fault switches, set by flags at start and flipped at run time through `POST /_sim/faults`.
public struct SimFaults: Codable, Sendable, Equatable {
    /// Added to every exchange answer.
    public var latencyMs: Int = 0
    /// Fraction of exchange answers replaced by `errorStatus`.
    public var errorRate: Double = 0
    public var errorStatus: Int = 500
    /// Fraction of 200 answers whose body is cut short (not valid JSON).
    public var malformedRate: Double = 0
    /// While true, exchange answers never come (until the switch is turned off).
    public var hang: Bool = false
    /// The next N exchange answers get `failNextStatus` (429 and 418 come with their headers).
    public var failNext: Int = 0
    public var failNextStatus: Int = 500
    /// Seconds sent as `Retry-After` with those 429s (0: none, as Upbit usually does).
    public var retryAfterSeconds: Int = 0
    /// Enforce Upbit's 10 requests per second per group (429, then 418 for continued abuse).
    public var rateLimit: Bool = true
    /// WebSocket: REALTIME ticker frames per second per connection (Upbit's KRW board: about 150).
    public var wsRate: Double = 150
    /// How often a ticker stream wakes to send the frames due since its last turn (at 150 a
    /// second, three together, as they reach a reader anyway). Waking once per frame made the
    /// demo's streams — in every test server — several times the wake-ups for the same frames.
    static let streamBeat = Duration.milliseconds(20)
    /// WebSocket: keep sockets open but send nothing (not even status frames).
    public var wsStall: Bool = false
    /// WebSocket: fraction of frames replaced by bytes that are not JSON.
    public var wsGarbageRate: Double = 0
    /// WebSocket: refuse new connections (the upgrade fails).
    public var wsRefuse: Bool = false
    /// WebSocket: close every connection this many seconds after it opened (0 = never).
    public var wsDropEverySeconds: Double = 0
    /// CoinGecko: calls allowed per minute before 429 (the free tier's budget is about 30).
    public var geckoPerMinute: Int = 30
    /// Markets missing from `/v1/market/all` and `/v1/ticker/all`, as if delisted.
    public var delisted: [String] = []
    /// Order books sent crossed (the best bid above the best ask), as a broken upstream might.
    public var crossedBooks: Bool = false
    /// WebSocket: whole books sent a second per subscribed market (Upbit publishes on a 100 ms grid).
    public var bookRate: Double = 10
    /// WebSocket: books and trades held back (tickers keep flowing), as a stalled depth feed.
    public var bookStall: Bool = false

    public init() {}

    /// A partial update: only the keys present change.
    public struct Patch: Decodable, Sendable {
        var latencyMs: Int?
        var errorRate: Double?
        var errorStatus: Int?
        var malformedRate: Double?
        var hang: Bool?
        var failNext: Int?
        var failNextStatus: Int?
        var retryAfterSeconds: Int?
        var rateLimit: Bool?
        var wsRate: Double?
        var wsStall: Bool?
        var wsGarbageRate: Double?
        var wsRefuse: Bool?
        var wsDropEverySeconds: Double?
        var geckoPerMinute: Int?
        var delisted: [String]?
        var crossedBooks: Bool?
        var bookRate: Double?
        var bookStall: Bool?
        /// An action: close every open WebSocket that carries a book or tape subscription, now.
        var bookDropNow: Bool?
        /// An action rather than a switch: close every open WebSocket now.
        var wsDropNow: Bool?
    }

    public mutating func apply(_ patch: Patch) {
        if let v = patch.latencyMs { latencyMs = max(0, v) }
        if let v = patch.errorRate { errorRate = min(max(v, 0), 1) }
        if let v = patch.errorStatus { errorStatus = v }
        if let v = patch.malformedRate { malformedRate = min(max(v, 0), 1) }
        if let v = patch.hang { hang = v }
        if let v = patch.failNext { failNext = max(0, v) }
        if let v = patch.failNextStatus { failNextStatus = v }
        if let v = patch.retryAfterSeconds { retryAfterSeconds = min(max(0, v), 3_600) }
        if let v = patch.rateLimit { rateLimit = v }
        if let v = patch.wsRate { wsRate = min(max(v, 0), 200_000) }
        if let v = patch.wsStall { wsStall = v }
        if let v = patch.wsGarbageRate { wsGarbageRate = min(max(v, 0), 1) }
        if let v = patch.wsRefuse { wsRefuse = v }
        if let v = patch.wsDropEverySeconds { wsDropEverySeconds = max(0, v) }
        if let v = patch.geckoPerMinute { geckoPerMinute = max(0, v) }
        if let v = patch.delisted { delisted = v.map { $0.uppercased() } }
        if let v = patch.crossedBooks { crossedBooks = v }
        if let v = patch.bookRate { bookRate = min(max(v, 0), 100) }
        if let v = patch.bookStall { bookStall = v }
    }
}
