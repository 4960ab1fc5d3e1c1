import Foundation
import SiseCore

/// Dunamu's forex endpoint (the bank reference rate Upbit's own site shows): unofficial and
/// undocumented, so it is asked rarely and its failures fall back to another source.
public struct DunamuForexClient: Sendable {
    public static let defaultURL = URL(string: "https://quotation-api-cdn.dunamu.com")!
    public let baseURL: URL
    private let transport: any HTTPTransport

    public init(baseURL: URL = DunamuForexClient.defaultURL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    struct RateDTO: Decodable {
        let code: String?
        let basePrice: Double
        let currencyUnit: Double?
        /// Epoch ms of the bank's posting.
        let timestamp: Int64?
    }

    /// KRW per USD and when the bank posted it (epoch ms).
    public func krwPerUSD() async throws -> (rate: Double, at: Int64?) {
        let url = try RESTURL.make(baseURL, "/v1/forex/recent", ["codes": "FRX.KRWUSD"])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw FeedError.unexpectedStatus(status: response.status, message: "dunamu forex") }
        guard let rows = try? JSONDecoder().decode([RateDTO].self, from: response.body),
            let row = rows.first(where: { $0.code == nil || $0.code == "FRX.KRWUSD" })
        else {
            throw FeedError.malformedPayload(context: "dunamu /v1/forex/recent")
        }
        let rate = row.basePrice / max(row.currencyUnit ?? 1, 1)
        guard rate.isFinite, rate > 0 else { throw FeedError.malformedPayload(context: "dunamu basePrice") }
        return (rate, row.timestamp)
    }
}
