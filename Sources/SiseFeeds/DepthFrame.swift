import Foundation
import SiseCore

/// One 호가 or 체결 frame of an exchange's WebSocket, decoded: a whole book (Upbit sends every
/// level each time; Korbit a snapshot, then whole books whose `snapshot` key may be absent), or
/// trades (Korbit sends an array, Upbit one). A frame of another type is nil; a frame that is not
/// what it says is a `FeedError.malformedPayload`, never a trap.
public enum DepthFrame: Sendable, Equatable {
    case book(Orderbook)
    case trades([Trade])
}

/// Upbit's (and Bithumb's v1) `orderbook` and `trade` frames, either format, through the one
/// stream decoder (`UpbitStreamDecoder`).
public enum UpbitDepthWire {
    public static func decode(_ data: Data) throws -> DepthFrame? {
        switch try UpbitStreamDecoder.decode(data) {
        case .orderbook(let book, _): .book(book)
        case .trade(let trade, _): .trades([trade])
        default: nil
        }
    }
}

/// Korbit v2's `orderbook` and `trade` frames: `{"symbol":"btc_krw","type":…,"data":…}`.
public enum KorbitDepthWire {
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
