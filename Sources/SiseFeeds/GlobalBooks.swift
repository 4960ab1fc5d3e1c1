import Foundation
import SiseCore

/// One coin's USDT order book on a global venue: asks and bids, best first, and when it was read.
public struct GlobalBook: Sendable, Equatable {
    public var asks: [Orderbook.Quote]
    public var bids: [Orderbook.Quote]
    /// Epoch ms (the venue's stamp, or the time of receipt where it gives none).
    public var at: Int64

    public init(asks: [Orderbook.Quote], bids: [Orderbook.Quote], at: Int64) {
        self.asks = asks
        self.bids = bids
        self.at = at
    }

    /// Levels written as arrays of strings (`["41006.8","0.60038921", …]`: price, size, then
    /// whatever the venue adds); a level whose price or size is not a positive number is left out.
    static func levels(_ rows: [[String]]?) -> [Orderbook.Quote] {
        (rows ?? []).compactMap { row in
            guard row.count >= 2, let price = Double(row[0]), let size = Double(row[1]), price.isFinite, size.isFinite, price > 0, size > 0 else {
                return nil
            }
            return Orderbook.Quote(price: price, size: size)
        }
    }
}

/// A venue whose book of one coin can be read (the executable premium walks it).
public protocol GlobalBookAPI: Sendable {
    /// `BTC`'s USDT book, up to 100 levels a side; `now` stamps an unstamped answer.
    func book(_ symbol: String, now: Int64) async throws -> GlobalBook
}

/// The symbol as a venue's path or query may carry it: letters and digits only.
func plainSymbol(_ symbol: String) throws -> String {
    let upper = symbol.uppercased()
    guard CoinTicker.isValid(upper) else {
        throw FeedError.badRequest(name: "symbol", message: String(symbol.prefix(20)))
    }
    return upper
}

extension BinanceClient {
    struct DepthDTO: Decodable {
        let bids: [[String]]?
        let asks: [[String]]?
    }

    /// `/api/v3/depth?symbol=BTCUSDT&limit=100` (weight 5; no time: stamped `now`).
    public func book(_ symbol: String, now: Int64) async throws -> GlobalBook {
        let url = try RESTURL.make(configuration.baseURL, "/api/v3/depth", ["symbol": try plainSymbol(symbol) + "USDT", "limit": "100"])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw Self.error(response) }
        return try Self.parseBook(response.body, now: now)
    }

    static func parseBook(_ body: Data, now: Int64) throws -> GlobalBook {
        guard let depth = try? JSONDecoder().decode(DepthDTO.self, from: body) else {
            throw FeedError.malformedPayload(context: "binance /api/v3/depth")
        }
        return GlobalBook(asks: GlobalBook.levels(depth.asks), bids: GlobalBook.levels(depth.bids), at: now)
    }
}

extension OKXClient {
    struct BooksEnvelope: Decodable {
        struct Book: Decodable {
            let asks: [[String]]?
            let bids: [[String]]?
            let ts: String?
        }
        let code: String?
        let msg: String?
        let data: [Book]?
    }

    /// `/api/v5/market/books?instId=BTC-USDT&sz=100`: levels `[price, size, "0", orders]`, `ts` a string.
    public func book(_ symbol: String, now: Int64) async throws -> GlobalBook {
        let url = try RESTURL.make(baseURL, "/api/v5/market/books", ["instId": try plainSymbol(symbol) + "-USDT", "sz": "100"])
        return try Self.parseBook(try await transport.get(url, headers: [("Accept", "application/json")]))
    }

    static func parseBook(_ response: HTTPResponseData) throws -> GlobalBook {
        let envelope = try? JSONDecoder().decode(BooksEnvelope.self, from: response.body)
        if response.status == 429 || envelope?.code == "50011" {
            throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(2))
        }
        guard response.status == 200, let envelope, let code = envelope.code else {
            throw FeedError.unexpectedStatus(status: response.status, message: "okx " + (envelope?.msg.map { String($0.prefix(120)) } ?? ""))
        }
        guard code == "0" else { throw FeedError.badRequest(name: "okx \(code.prefix(12))", message: String((envelope.msg ?? "").prefix(120))) }
        guard let book = envelope.data?.first, let stamp = book.ts.flatMap({ Int64($0) }), stamp > 0 else {
            throw FeedError.malformedPayload(context: "okx /api/v5/market/books: no book")
        }
        return GlobalBook(asks: GlobalBook.levels(book.asks), bids: GlobalBook.levels(book.bids), at: stamp)
    }
}

extension BybitClient {
    struct BookEnvelope: Decodable {
        struct Book: Decodable {
            let a: [[String]]?
            let b: [[String]]?
            let ts: Int64?
        }
        let retCode: Int?
        let retMsg: String?
        let result: Book?
    }

    /// `/v5/market/orderbook?category=spot&symbol=BTCUSDT&limit=100`: `a`/`b`, `ts` a number.
    public func book(_ symbol: String, now: Int64) async throws -> GlobalBook {
        let url = try RESTURL.make(baseURL, "/v5/market/orderbook", ["category": "spot", "symbol": try plainSymbol(symbol) + "USDT", "limit": "100"])
        return try Self.parseBook(try await transport.get(url, headers: [("Accept", "application/json")]))
    }

    static func parseBook(_ response: HTTPResponseData) throws -> GlobalBook {
        let envelope = try? JSONDecoder().decode(BookEnvelope.self, from: response.body)
        if response.status == 429 || response.status == 403 || envelope?.retCode == 10006 {
            throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(5))
        }
        guard response.status == 200, let envelope, let code = envelope.retCode else {
            throw FeedError.unexpectedStatus(status: response.status, message: "bybit")
        }
        guard code == 0 else { throw FeedError.badRequest(name: "bybit \(code)", message: String((envelope.retMsg ?? "").prefix(120))) }
        guard let book = envelope.result, let stamp = book.ts, stamp > 0 else {
            throw FeedError.malformedPayload(context: "bybit /v5/market/orderbook: no book")
        }
        return GlobalBook(asks: GlobalBook.levels(book.a), bids: GlobalBook.levels(book.b), at: stamp)
    }
}
