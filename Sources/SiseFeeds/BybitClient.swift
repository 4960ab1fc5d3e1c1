import Foundation
import SiseCore

extension GlobalVenueSpec {
    /// Bybit spot: `/v5/market/tickers?category=spot` (600 requests per 5 s per address).
    static let bybit = GlobalVenueSpec(
        venue: .bybit,
        restURL: URL(string: "https://api.bybit.com")!,
        simulatorPath: "bybit",
        pollInterval: .seconds(2),
        client: { url, transport in BybitClient(baseURL: url, transport: transport) }
    )
}

/// Bybit v5's public spot tickers: prices are strings, `retCode` and `time` numbers, and errors
/// come as HTTP 200 with `retCode` other than 0 (10006: too many requests). The whole answer
/// carries one `time`, which stamps every row.
public struct BybitClient: GlobalPriceAPI {
    public let baseURL: URL
    let transport: any HTTPTransport

    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    struct Envelope: Decodable {
        let retCode: Int?
        let retMsg: String?
        let result: Result?
        let time: Int64?
    }

    struct Result: Decodable {
        let list: [Ticker]?
    }

    struct Ticker: Decodable {
        let symbol: String
        let lastPrice: String?
    }

    public func usdtQuotes(now: Int64) async throws -> [String: VenueQuote] {
        let url = try RESTURL.make(baseURL, "/v5/market/tickers", ["category": "spot"])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        return try Self.parse(response)
    }

    static func parse(_ response: HTTPResponseData) throws -> [String: VenueQuote] {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: response.body)
        if response.status == 429 || response.status == 403 || envelope?.retCode == 10006 {
            throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(5))
        }
        guard response.status == 200 else { throw FeedError.unexpectedStatus(status: response.status, message: "bybit") }
        guard let envelope, let code = envelope.retCode else { throw FeedError.malformedPayload(context: "bybit /v5/market/tickers") }
        guard code == 0 else { throw FeedError.badRequest(name: "bybit \(code)", message: String((envelope.retMsg ?? "").prefix(120))) }
        guard let stamp = envelope.time, stamp > 0, let list = envelope.result?.list else {
            throw FeedError.malformedPayload(context: "bybit: no time or list")
        }
        var quotes: [String: VenueQuote] = [:]
        for ticker in list {
            guard ticker.symbol.hasSuffix("USDT"), ticker.symbol.count > 4, let text = ticker.lastPrice, let price = Double(text), price.isFinite,
                price > 0
            else { continue }
            quotes[String(ticker.symbol.dropLast(4))] = VenueQuote(price: price, at: stamp)
        }
        return quotes
    }
}
