import Foundation
import SiseCore

/// A global venue's public spot prices: every USDT pair in one call, by base symbol, each stamped
/// with the venue's time (or the time of receipt where the venue gives none).
public protocol GlobalPriceAPI: GlobalBookAPI {
    /// `BTC` → its USDT price and time. `now`: the receipt time for unstamped answers.
    func usdtQuotes(now: Int64) async throws -> [String: VenueQuote]
}

/// Everything about reaching one global venue, in one value: its live base URL (and so the flag,
/// environment and config names), its client, how often it may be asked, and the simulator's
/// mount. The composition root, the flags, the simulator and the tests iterate
/// `GlobalVenueRegistry.all`; each venue's spec lives in its own file.
public struct GlobalVenueSpec: Sendable {
    public let venue: GlobalVenue
    public let restURL: URL
    /// The simulator's mount: the venue's REST base is `SIMULATOR/` + this.
    public let simulatorPath: String
    /// The shortest time between two polls that stays well inside the venue's limit.
    public let pollInterval: Duration
    private let client: @Sendable (URL, any HTTPTransport) -> any GlobalPriceAPI

    public init(
        venue: GlobalVenue,
        restURL: URL,
        simulatorPath: String,
        pollInterval: Duration,
        client: @escaping @Sendable (URL, any HTTPTransport) -> any GlobalPriceAPI
    ) {
        self.venue = venue
        self.restURL = restURL
        self.simulatorPath = simulatorPath
        self.pollInterval = pollInterval
        self.client = client
    }

    /// `--okx-url`, `SISE_OKX_URL`, `okx-url` in the config file (Binance keeps `--binance-url`).
    public var restSetting: String { venue.rawValue + "-url" }

    public func api(_ base: URL? = nil, transport: any HTTPTransport) -> any GlobalPriceAPI {
        client(base ?? restURL, transport)
    }

    /// The venue's base on a running simulator.
    public func simulated(at simulator: URL) -> URL { simulator.appendingPathComponent(simulatorPath) }
}

/// Every global venue, in `GlobalVenue.allCases`'s order.
public enum GlobalVenueRegistry {
    public static let all: [GlobalVenueSpec] = GlobalVenue.allCases.map(spec)

    public static func spec(_ venue: GlobalVenue) -> GlobalVenueSpec {
        switch venue {
        case .binance: .binance
        case .okx: .okx
        case .bybit: .bybit
        }
    }
}
