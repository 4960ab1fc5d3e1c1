import Foundation
import SiseCore

/// Figures written as decimal strings (Korbit's and Coinone's `"50062000.0"`, `"0.00009258"`):
/// read as finite Doubles, never trusted past 64 characters.
enum StringNumber {
    static func double(_ text: String?) -> Double? {
        guard let text, text.utf8.count <= 64, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// One side of an order book from `price`/`qty` strings; a level that is not two numbers
    /// fails the book (a half-read book is never shown).
    static func levels(_ rows: [(price: String, qty: String)]) throws -> [Orderbook.Quote] {
        try rows.map { row in
            guard let price = double(row.price), let size = double(row.qty) else {
                throw FeedError.malformedPayload(context: "orderbook: a level that is not a number")
            }
            return Orderbook.Quote(price: price, size: size)
        }
    }
}
