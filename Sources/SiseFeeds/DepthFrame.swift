import Foundation
import SiseCore
import Synchronization

/// One 호가 or 체결 frame of an exchange's WebSocket, decoded: a whole book (Upbit sends every
/// level each time; Korbit a snapshot, then whole books whose `snapshot` key may be absent), or
/// trades (Korbit sends an array, Upbit one). A frame of another type is nil; a frame that is not
/// what it says is a `FeedError.malformedPayload`, never a trap.
public enum DepthFrame: Sendable, Equatable {
    case book(Orderbook)
    case trades([Trade])
}

/// Upbit's (and Bithumb's v1) `orderbook` and `trade` frames, either format, through the one
/// stream decoder (`UpbitStreamDecoder`); as a stream's wire, one request names both types with
/// the full code list (a new request replaces the old, as for tickers).
public struct UpbitDepthWire: TickerWireFormat {
    public init() {}

    public func subscription(codes: [MarketID]) -> [String] {
        guard !codes.isEmpty else { return [] }
        let ticket = UUID().uuidString.lowercased()
        let quoted = codes.map { "\"\($0.code)\"" }.joined(separator: ",")
        return [#"[{"ticket":"\#(ticket)"},{"type":"orderbook","codes":[\#(quoted)]},{"type":"trade","codes":[\#(quoted)]},{"format":"DEFAULT"}]"#]
    }

    public var textPing: String? { "PING" }

    public func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        switch try? UpbitStreamDecoder.decode(Data(bytes)) {
        case .orderbook(let book, _): .depth(.book(book))
        case .trade(let trade, _): .depth(.trades([trade]))
        case .error(let name, let message): .rejected(name: name, message: message)
        case .ticker, .candle, .status, .other: .heartbeat
        case nil: .garbage
        }
    }

    public static func decode(_ data: Data) throws -> DepthFrame? {
        switch try UpbitStreamDecoder.decode(data) {
        case .orderbook(let book, _): .book(book)
        case .trade(let trade, _): .trades([trade])
        default: nil
        }
    }
}

/// Korbit v2's `orderbook` and `trade` frames: `{"symbol":"btc_krw","type":…,"data":…}`. Korbit
/// adds symbols channel by channel, so a new list unsubscribes the ones it no longer names first.
public final class KorbitDepthWire: TickerWireFormat {
    private let sent = Mutex<Set<MarketID>>([])

    public init() {}

    public func subscription(codes: [MarketID]) -> [String] {
        let gone = sent.withLock { sent in
            defer { sent = Set(codes) }
            return sent.subtracting(codes).sorted { $0.code < $1.code }
        }
        func request(_ method: String, _ markets: [MarketID]) -> [String] {
            guard !markets.isEmpty else { return [] }
            let symbols = markets.map { "\"\(KorbitSymbol.symbol($0))\"" }.joined(separator: ",")
            return ["orderbook", "trade"].map { #"{"method":"\#(method)","type":"\#($0)","symbols":[\#(symbols)]}"# }
        }
        let requests = request("unsubscribe", gone) + request("subscribe", codes)
        return requests.isEmpty ? [] : ["[" + requests.joined(separator: ",") + "]"]
    }

    public var textPing: String? { nil }

    /// Acknowledgements and refusals read as for tickers; a depth frame that is not what it says is garbage.
    public func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        switch KorbitTickerWire.decode(bytes) {
        case .heartbeat:
            do { return try Self.decode(Data(bytes)).map { .depth($0) } ?? .heartbeat } catch { return .garbage }
        case .ticker: return .heartbeat
        case let other: return other
        }
    }

    public static func decode(_ data: Data) throws -> DepthFrame? {
        guard let head = try? JSONDecoder().decode(KorbitDepthHead.self, from: data) else {
            throw FeedError.malformedPayload(context: "depth frame: not a Korbit frame")
        }
        guard head.type == "orderbook" || head.type == "trade" else { return nil }
        guard let market = KorbitSymbol.market(head.symbol) else {
            throw FeedError.malformedPayload(context: "depth frame: bad symbol \(head.symbol.prefix(40))")
        }
        if head.type == "orderbook" {
            guard let book = try? JSONDecoder().decode(KorbitDepthBody<KorbitDTO.Book>.self, from: data).data else {
                throw FeedError.malformedPayload(context: "depth frame: a book without its sides")
            }
            func side(_ rows: [KorbitDTO.Book.Row]) throws -> [Orderbook.Quote] { try StringNumber.levels(rows.map { ($0.price, $0.qty) }) }
            return .book(Orderbook(market: market, timestamp: book.timestamp, asks: try side(book.asks), bids: try side(book.bids)))
        }
        guard let rows = try? JSONDecoder().decode(KorbitDepthBody<[KorbitDTO.Trade]>.self, from: data).data else {
            throw FeedError.malformedPayload(context: "depth frame: trades without their list")
        }
        return .trades(try rows.map { try $0.toTrade(market) })
    }
}

struct KorbitDepthHead: Decodable {
    var symbol: String
    var type: String
}

struct KorbitDepthBody<Body: Decodable>: Decodable {
    var data: Body
}
