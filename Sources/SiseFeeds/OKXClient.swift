import Foundation
import SiseCore

extension GlobalVenueSpec {
    /// OKX spot: `/api/v5/market/tickers?instType=SPOT` (20 requests per 2 s per address).
    static let okx = GlobalVenueSpec(
        venue: .okx,
        restURL: URL(string: "https://www.okx.com")!,
        simulatorPath: "okx",
        pollInterval: .seconds(2),
        client: { url, transport in OKXClient(baseURL: url, transport: transport) }
    )
}

/// OKX's public spot tickers. Everything in the answer is a string — `ts` (ms) and `code`
/// included; success is `code == "0"`, and errors come in the same envelope (HTTP 200 or 4xx).
public struct OKXClient: GlobalPriceAPI {
    public let baseURL: URL
    let transport: any HTTPTransport

    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    struct Envelope: Decodable {
        let code: String?
        let msg: String?
        let data: [Ticker]?
    }

    struct Ticker: Decodable {
        let instId: String
        let last: String?
        let ts: String?
    }

    public func usdtQuotes(now: Int64) async throws -> [String: VenueQuote] {
        let url = try RESTURL.make(baseURL, "/api/v5/market/tickers", ["instType": "SPOT"])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        return try Self.parse(response)
    }

    static func parse(_ response: HTTPResponseData) throws -> [String: VenueQuote] {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: response.body)
        if response.status == 429 || envelope?.code == "50011" {
            throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(2))
        }
        guard response.status == 200 else {
            throw FeedError.unexpectedStatus(status: response.status, message: "okx " + (envelope?.msg.map { String($0.prefix(120)) } ?? ""))
        }
        guard let envelope, let code = envelope.code else { throw FeedError.malformedPayload(context: "okx /api/v5/market/tickers") }
        guard code == "0" else { throw FeedError.badRequest(name: "okx \(code.prefix(12))", message: String((envelope.msg ?? "").prefix(120))) }
        var quotes: [String: VenueQuote] = [:]
        for ticker in envelope.data ?? [] {
            guard ticker.instId.hasSuffix("-USDT"), let text = ticker.last, let price = Double(text), price.isFinite, price > 0,
                let stamp = ticker.ts.flatMap({ Int64($0) }), stamp > 0
            else { continue }
            let base = String(ticker.instId.dropLast(5))
            // Each request may hit another cache: keep the newest of a symbol.
            if let held = quotes[base], held.at >= stamp { continue }
            quotes[base] = VenueQuote(price: price, at: stamp)
        }
        return quotes
    }
}
