import Foundation
import SiseCore

extension GlobalVenueSpec {
    /// Binance spot: `/api/v3/ticker/price`, every pair for weight 4 of 6,000 a minute; its
    /// prices carry no time, so they are stamped on receipt.
    static let binance = GlobalVenueSpec(
        venue: .binance,
        restURL: BinanceClient.Configuration.defaultURL,
        simulatorPath: "binance",
        pollInterval: .seconds(2),
        client: { url, transport in BinanceClient(configuration: .init(baseURL: url), transport: transport) }
    )
}

extension BinanceClient: GlobalPriceAPI {
    public func usdtQuotes(now: Int64) async throws -> [String: VenueQuote] {
        try await usdtPrices().mapValues { VenueQuote(price: $0, at: now) }
    }
}
