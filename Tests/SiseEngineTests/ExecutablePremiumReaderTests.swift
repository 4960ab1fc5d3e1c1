import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import Synchronization
import Testing

/// The executable premium's reader: however many coins anonymous callers ask about, a venue's
/// books are asked at most `booksPerMinute` times a minute (its limit is the server's), and one
/// coin's book is reused for 2 s.
@Suite struct ExecutablePremiumReaderTests {
    final class CountingBooks: GlobalBookAPI {
        let calls = Mutex(0)
        func book(_ symbol: String, now: Int64) async throws -> GlobalBook {
            calls.withLock { $0 += 1 }
            return GlobalBook(asks: [.init(price: 1, size: 1)], bids: [.init(price: 1, size: 1)], at: now)
        }
    }

    @Test func aVenuesBooksAreAskedWithinABudget() async {
        let books = CountingBooks()
        let time = Mutex<Int64>(1_800_000_000_000)
        let clock = WallClock { time.withLock { $0 } }
        let reader = ExecutablePremiumReader(apis: [:], globals: [.okx: books], wallets: nil, clock: clock) { nil }
        for n in 0..<100 {
            _ = await reader.read(exchange: .upbit, symbol: "C\(n)", venue: .okx, amount: 1_000_000, language: .en)
        }
        #expect(books.calls.withLock { $0 } == ExecutablePremiumReader.booksPerMinute, "100 coins at once: the minute's budget, no more")
        _ = await reader.read(exchange: .upbit, symbol: "C0", venue: .okx, amount: 1_000_000, language: .en)
        #expect(books.calls.withLock { $0 } == ExecutablePremiumReader.booksPerMinute, "a coin read within 2 s is reused")
        time.withLock { $0 += 61_000 }
        _ = await reader.read(exchange: .upbit, symbol: "C99", venue: .okx, amount: 1_000_000, language: .en)
        #expect(books.calls.withLock { $0 } == ExecutablePremiumReader.booksPerMinute + 1, "a minute later the venue is asked again")
    }
}
