import SiseCore
import Testing

/// The one listing rule every face uses (`price`, `candles`, `coin`, alerts, the API): each
/// crossing of what a person typed × exchange, one row.
@Suite struct MarketListingTests {
    static let listings: [Exchange: MarketListing] = [
        .upbit: MarketListing(exchange: .upbit, listed: ["KRW-BTC", "KRW-ETH", "BTC-ETH", "USDT-BTC"].compactMap(MarketID.init)),
        .korbit: MarketListing(exchange: .korbit, listed: ["KRW-BTC", "KRW-ETH"].compactMap(MarketID.init)),
        .bithumb: MarketListing(exchange: .bithumb, listed: ["KRW-BTC", "BTC-ETH"].compactMap(MarketID.init)),
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        let exchange: Exchange
        let typed: String
        let expected: Result<String, ListingProblem>
        var testDescription: String { "\(exchange) \(typed)" }
    }

    static let rows: [Row] = [
        Row(exchange: .upbit, typed: "BTC", expected: .success("KRW-BTC")),
        Row(exchange: .upbit, typed: " krw-eth ", expected: .success("KRW-ETH")),
        Row(exchange: .upbit, typed: "BTC-ETH", expected: .success("BTC-ETH")),
        Row(exchange: .upbit, typed: "KRW-NOPE", expected: .failure(.unlisted(["KRW-NOPE"]))),
        Row(exchange: .korbit, typed: "BTC-ETH", expected: .failure(.badQuote(.korbit, .btc))),
        Row(exchange: .korbit, typed: "USDT-BTC", expected: .failure(.badQuote(.korbit, .usdt))),
        Row(exchange: .korbit, typed: "KRW-ANKR", expected: .failure(.unlisted(["KRW-ANKR"]))),
        Row(exchange: .bithumb, typed: "USDT-BTC", expected: .failure(.badQuote(.bithumb, .usdt))),
        Row(exchange: .bithumb, typed: "BTC-ETH", expected: .success("BTC-ETH")),
        Row(exchange: .bithumb, typed: "KRW-", expected: .failure(.notAMarket("KRW-"))),
        Row(exchange: .bithumb, typed: "EUR-BTC", expected: .failure(.notAMarket("EUR-BTC"))),
    ]

    @Test(arguments: rows)
    func eachTypedMarketOnEachExchange(_ row: Row) throws {
        let listing = try #require(Self.listings[row.exchange])
        let outcome: Result<String, ListingProblem>
        do { outcome = .success(try listing.market(row.typed).code) } catch { outcome = .failure(error) }
        #expect(outcome == row.expected)
    }

    @Test func refusalsAreWordedInBothLanguagesAndSayWhatExists() {
        let korbit = ListingProblem.badQuote(.korbit, .btc)
        #expect(korbit.message(.en) == "Korbit has no BTC market (it has KRW)")
        #expect(korbit.message(.ko) == "Korbit에는 BTC 마켓이 없습니다 (KRW 마켓만 있습니다)")
        #expect(ListingProblem.unlisted(["NOPE"]).message(.en) == "unknown symbol: NOPE")
        #expect(ListingProblem.unlisted(["NOPE"]).isUnlisted && !korbit.isUnlisted)
    }

    @Test func severalNamesAreResolvedOnceAndEveryUnknownNamedTogether() throws {
        let upbit = try #require(Self.listings[.upbit])
        #expect(try upbit.markets(["BTC", "krw-btc", "ETH"]).map(\.code) == ["KRW-BTC", "KRW-ETH"])
        #expect(throws: ListingProblem.unlisted(["NOPE", "KRW-"])) { try upbit.markets(["BTC", "NOPE", "KRW-"]) }
    }
}
