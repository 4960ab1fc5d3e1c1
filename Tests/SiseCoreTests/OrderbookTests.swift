import Foundation
import SiseCore
import Testing

/// A book is shown only when consistent; the tape keeps each trade once, newest first.
@Suite struct OrderbookTests {
    static let btc = MarketID("KRW-BTC")!
    typealias Q = Orderbook.Quote

    @Test(
        arguments: [
            ("consistent", [Q(price: 101, size: 1), Q(price: 102, size: 2)], [Q(price: 100, size: 1), Q(price: 99, size: 0)], nil),
            ("crossed", [Q(price: 101, size: 1)], [Q(price: 101, size: 1)], Orderbook.Problem.crossed),
            ("asks unsorted", [Q(price: 102, size: 1), Q(price: 101, size: 1)], [Q(price: 100, size: 1)], .unsorted),
            ("bids unsorted", [Q(price: 101, size: 1)], [Q(price: 99, size: 1), Q(price: 100, size: 1)], .unsorted),
            ("negative size", [Q(price: 101, size: -1)], [Q(price: 100, size: 1)], .badFigure),
            ("not a number", [Q(price: .nan, size: 1)], [Q(price: 100, size: 1)], .badFigure),
            ("one side empty (a stopped pair)", [], [Q(price: 100, size: 1)], nil),
        ] as [(String, [Q], [Q], Orderbook.Problem?)]
    )
    func aBookIsShownOnlyWhenConsistent(_ label: String, _ asks: [Q], _ bids: [Q], _ problem: Orderbook.Problem?) {
        let book = Orderbook(market: Self.btc, timestamp: 1, asks: asks, bids: bids)
        var found: Orderbook.Problem?
        do { _ = try book.checked() } catch { found = error }
        #expect(found == problem, "\(label)")
    }

    @Test func sidesOfDifferentLengthsKeepTheirLevelsAndTotals() {
        let book = Orderbook(market: Self.btc, timestamp: 1, asks: [Q(price: 101, size: 1.5)], bids: [Q(price: 100, size: 1), Q(price: 99, size: 2)])
        #expect(book.asks == [Q(price: 101, size: 1.5)] && book.bids.count == 2)
        #expect(book.totalAskSize == 1.5 && book.totalBidSize == 3)
        #expect(book.top(1).bids == [Q(price: 100, size: 1)])
        let json = OrderbookJSON(book, exchange: .korbit)
        #expect(json.asks.first?.price == "101" && json.asks.first?.size == "1.5" && json.exchange == "korbit")
    }

    @Test func numbersAreWrittenAsPlainDecimals() {
        #expect(DecimalText.plain(91_200_000) == "91200000")
        #expect(DecimalText.plain(5.485e-05) == "0.00005485")
        #expect(DecimalText.plain(0.02636069) == "0.02636069")
    }

    /// Upbit's real tape has equal timestamps; `sequential_id` is the only identity.
    @Test func theTapeKeepsEachTradeOnceNewestFirst() {
        func trade(_ id: Int64, at: Int64) -> Trade {
            Trade(market: Self.btc, price: 1, volume: 1, side: .bid, timestamp: at, sequentialID: id, prevClosingPrice: 0, changePrice: 0)
        }
        let tape = TradeTape.newestFirst(
            [trade(1, at: 10), trade(3, at: 12), trade(2, at: 12), trade(3, at: 12)] + (100..<200).map { trade($0, at: 1) }
        )
        #expect(tape.prefix(3).map(\.sequentialID) == [3, 2, 1])
        #expect(tape.count == TradeTape.limit)
        #expect(TradeJSON(trade(17_853_972_606_600_000, at: 1)).id == "17853972606600000", "ids beyond 2^53 stay exact")
    }
}
