import Foundation
import SiseStore

/// Writes per client address per minute (favorites, portfolio, alerts…): one address cannot fill
/// the database with invented devices and ids. A bucket of `perMinute` that refills at
/// `perMinute` a minute, kept in a `TallyBook` (shared by replicas on one PostgreSQL). 0 turns it off.
struct WriteRateLimit: Sendable {
    let perMinute: Int
    /// Names this limit's keys in a book it shares with others.
    let name: String
    private let book: any TallyBook

    init(perMinute: Int, name: String = "write", book: any TallyBook = MemoryTallies()) {
        self.perMinute = perMinute
        self.name = name
        self.book = book
    }

    /// Takes one write for `address`; the seconds to wait when it is over the limit.
    func take(_ address: String?, now: Int64) async -> Int? {
        guard perMinute > 0, let address else { return nil }
        let key = name + ":" + address
        let capacity = Double(perMinute)
        let perMillisecond = capacity / 60_000
        return await book.update([key], now: now) { tallies in
            let tokens = tallies[key].map { min(capacity, $0.count + Double(max(0, now - $0.last)) * perMillisecond) } ?? capacity
            guard tokens >= 1 else { return max(1, Int(((1 - tokens) / perMillisecond / 1_000).rounded(.up))) }
            tallies[key] = Tally(count: tokens - 1, since: now, last: now)
            return nil
        }
    }
}
