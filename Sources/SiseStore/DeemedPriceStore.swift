import Foundation
import SiseCore

/// The prices each exchange showed at the deemed-cost instant (2027-01-01 00:00 KST), in the store
/// (SQLite or PostgreSQL). Each (instant, exchange, coin, source) is written once: the first
/// replica to write a reading keeps it, and later writes of it change nothing — so every replica
/// may record and the table still holds one answer.
public struct DeemedPriceStore: Sendable {
    private let database: AppDatabase
    /// Readings per statement (well inside both engines' limits on bound values).
    static let batch = 200

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Writes the readings not yet held; how many were new.
    @discardableResult
    public func record(instant: Int64, _ readings: [DeemedReading], at now: Int64) async throws -> Int {
        let rows = readings.filter { $0.source != .live && $0.price > 0 }
        guard !rows.isEmpty else { return 0 }
        return try await database.write { db in
            var written = 0
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + Self.batch, rows.count)]
                let marks = Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                var arguments: [any SQLBindable] = []
                arguments.reserveCapacity(chunk.count * 7)
                for reading in chunk {
                    arguments += [
                        instant, reading.exchange.rawValue, reading.coin, reading.source.rawValue, PortfolioLedger.text(reading.price),
                        reading.tradedAt, now,
                    ]
                }
                written += try await db.execute(
                    """
                    INSERT INTO deemed_price (instant, exchange, coin, source, price, tradedAt, recordedAt) VALUES \(marks)
                    ON CONFLICT (instant, exchange, coin, source) DO NOTHING
                    """,
                    arguments
                )
                start += Self.batch
            }
            return written
        }
    }

    /// Every reading held for `instant`.
    public func readings(instant: Int64) async throws -> [DeemedReading] {
        try await database.read { db in
            try await db.query("SELECT exchange, coin, source, price, tradedAt FROM deemed_price WHERE instant = ? ORDER BY coin, exchange", instant)
                .compactMap { row in
                    guard let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)), let coin = row.string("coin"),
                        let source = row.string("source").flatMap(DeemedPrice.Source.init(rawValue:)),
                        let price = row.string("price").flatMap(PortfolioLedger.decimal), let tradedAt = row.int64("tradedAt")
                    else { return nil }
                    return DeemedReading(exchange: exchange, coin: coin, source: source, price: price, tradedAt: tradedAt)
                }
        }
    }

    /// Each coin's deemed price from what is held for `instant`.
    public func prices(instant: Int64 = TaxRules.deemedInstant) async throws -> [String: DeemedPrice] {
        DeemedPrice.table(try await readings(instant: instant))
    }
}
