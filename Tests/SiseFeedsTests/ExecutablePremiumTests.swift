import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The executable premium walked by hand over recorded books — Upbit's and Bithumb's real KRW-BTC
/// books, OKX's, Bybit's and Binance's documentation examples (SOURCES.md: docs examples, Binance's
/// with placeholder figures, so the arithmetic is what is checked, not a market) — to the won, at
/// a rate of ₩1,380 a dollar.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct ExecutablePremiumTests {
    static let rate = 1_380.0

    func korean(_ name: String) throws -> (asks: [Orderbook.Quote], bids: [Orderbook.Quote]) {
        let book = try #require(try UpbitDecoding.decode([UpbitOrderbookDTO].self, from: RealFixtures.data(name), context: name).first).toOrderbook()
        return (book.asks, book.bids)
    }

    func global(_ name: String) throws -> (asks: [Orderbook.Quote], bids: [Orderbook.Quote]) {
        let response = HTTPResponseData(status: 200, headers: [:], body: try RealFixtures.data(name))
        let book: GlobalBook =
            switch name {
            case let okx where okx.hasPrefix("okx"): try OKXClient.parseBook(response)
            case let bybit where bybit.hasPrefix("bybit"): try BybitClient.parseBook(response)
            default: try BinanceClient.parseBook(response.body, now: 0)
            }
        return (book.asks, book.bids)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var direction: ExecutablePremium.Direction
        var korean: String
        var global: String
        var amount: Double
        var fee: Double?
        /// The won that come back, or why none.
        var krwOut: Double?
        var refusal: ExecutablePremium.Refusal?
        var testDescription: String { "\(direction.rawValue) \(korean.prefix(6)) ⇄ \(global.prefix(5)) ₩\(Int(amount))" }
    }

    static let rows: [Row] = [
        // ₩1,000,000 buys 1,000,000 / 103,493,000 = 0.00966249 BTC at Upbit's best ask; less the
        // 0.0008 fee, 0.00886249 sells at OKX's 41,006.3 for 363.4179 USDT = ₩501,517.
        Row(
            direction: .abroad,
            korean: "upbit-orderbook.json",
            global: "okx-v5-market-books-docs-example.json",
            amount: 1_000_000,
            fee: 0.0008,
            krwOut: 501_517
        ),
        // ₩500,000 = 362.3188 USDT buys 0.00577766 BTC at Bybit's 62,710.3; sold down Bithumb's bids:
        // 0.0002 × 91,196,000 + 0.0031 × 91,172,000 + 0.00247766 × 91,171,000 = ₩526,763.
        Row(
            direction: .toKorea,
            korean: "bithumb-v1-orderbook-krw-btc-30.json",
            global: "bybit-v5-market-orderbook-btcusdt-docs-example.json",
            amount: 500_000,
            krwOut: 526_763
        ),
        // ₩1,000,000 = 724.64 USDT: Bybit's one ask level (0.01 BTC, 627.10 USDT) cannot take it.
        Row(
            direction: .toKorea,
            korean: "bithumb-v1-orderbook-krw-btc-30.json",
            global: "bybit-v5-market-orderbook-btcusdt-docs-example.json",
            amount: 1_000_000,
            refusal: .bookTooThin(.global)
        ),
        // ₩1,000,000 = 724.6377 USDT buys 0.01767116 BTC at OKX's 41,006.8, sold down Upbit's bids for ₩1,827,839.
        Row(
            direction: .toKorea,
            korean: "upbit-orderbook.json",
            global: "okx-v5-market-books-docs-example.json",
            amount: 1_000_000,
            krwOut: 1_827_839
        ),
        // Bithumb's asks: 0.0469 × 91,226,000 = ₩4,278,499 ≥ ₩1,000,000 → 0.01096179 BTC; less 0.0002,
        // 0.01076179 sells at Binance's placeholder bid of 4 for 0.04304715 "USDT" = ₩59.
        Row(
            direction: .abroad,
            korean: "bithumb-v1-orderbook-krw-btc-30.json",
            global: "binance-v3-depth-docs-example.json",
            amount: 1_000_000,
            fee: 0.0002,
            krwOut: 59
        ),
        // A fee larger than what ₩10,000 buys: nothing arrives.
        Row(
            direction: .abroad,
            korean: "upbit-orderbook.json",
            global: "okx-v5-market-books-docs-example.json",
            amount: 10_000,
            fee: 0.5,
            refusal: .feeExceedsAmount
        ),
    ]

    @Test(arguments: rows)
    func toTheWon(_ row: Row) throws {
        let inputs = ExecutablePremium.Inputs(
            amountKRW: row.amount,
            korean: try korean(row.korean),
            global: try global(row.global),
            krwPerUSD: Self.rate,
            koreanWithdrawFee: row.fee
        )
        switch ExecutablePremium.compute(row.direction, inputs) {
        case .success(let outcome):
            #expect(row.refusal == nil, "expected \(String(describing: row.refusal))")
            #expect(outcome.krwOut.rounded() == row.krwOut, "₩\(outcome.krwOut)")
            #expect(outcome.krwIn == row.amount && abs(outcome.profit - (outcome.krwOut - row.amount)) < 1e-6)
        case .failure(let refusal):
            #expect(refusal == row.refusal)
        }
    }

    /// A shut wallet on the sending or receiving side is named; no rate, no figure.
    @Test func shutWalletsAndNoRateAreSaid() throws {
        var inputs = ExecutablePremium.Inputs(
            amountKRW: 1_000_000,
            korean: try korean("upbit-orderbook.json"),
            global: try global("okx-v5-market-books-docs-example.json"),
            krwPerUSD: Self.rate,
            koreanDeposit: false,
            koreanWithdraw: true
        )
        #expect(ExecutablePremium.compute(.toKorea, inputs) == .failure(.walletShut(.korean, .deposit)))
        if case .failure = ExecutablePremium.compute(.abroad, inputs) { Issue.record("withdrawals are open: the abroad direction stands") }
        inputs.koreanWithdraw = false
        #expect(ExecutablePremium.compute(.abroad, inputs) == .failure(.walletShut(.korean, .withdraw)))
        inputs.krwPerUSD = nil
        #expect(ExecutablePremium.compute(.abroad, inputs) == .failure(.noRate))
    }

    /// Levels that are not numbers, or not positive, are left out of a book; a refusal in HTTP
    /// 200 is an error in the venue's words.
    @Test func hostileBooks() throws {
        let body = #"{"code":"0","data":[{"asks":[["x","1"],["-1","2"],["10","0"],["11","2","0","1"]],"bids":[],"ts":"5"}]}"#
        let book = try OKXClient.parseBook(HTTPResponseData(status: 200, headers: [:], body: Data(body.utf8)))
        #expect(book.asks == [Orderbook.Quote(price: 11, size: 2)] && book.bids.isEmpty && book.at == 5)
        #expect(throws: FeedError.self) {
            try BybitClient.parseBook(HTTPResponseData(status: 200, headers: [:], body: Data(#"{"retCode":10001,"retMsg":"params error"}"#.utf8)))
        }
        #expect(throws: FeedError.self) {
            try OKXClient.parseBook(HTTPResponseData(status: 200, headers: [:], body: Data(#"{"code":"0","data":[]}"#.utf8)))
        }
        #expect(ExecutablePremium.buy(spending: 100, asks: []) == nil && ExecutablePremium.sell(.nan, bids: book.asks) == nil)
    }
}
