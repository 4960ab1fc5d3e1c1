import Foundation
import SiseCore
import Testing

/// The tax year's arithmetic against tables worked by hand (each test's comment is its table):
/// the three cost methods, the deemed cost of 2027-01-01, partial sells, fees in a coin, a
/// BTC-market trade, units without a cost, the holder's own transfers, a loss netting a gain and
/// the deduction's boundary.
@Suite struct TaxYearTests {
    static let day: Int64 = 86_400_000
    static let t0 = TaxRules.deemedInstant

    static func d(_ text: String) -> Decimal { Decimal(string: text) ?? .nan }

    static func trade(
        _ id: String,
        _ side: TaxTrade.Side,
        _ base: String,
        _ quantity: String,
        _ price: String,
        fee: String = "0",
        at: Int64
    ) -> [TaxEvent] {
        TaxTrade(id: id, side: side, base: base, quantity: d(quantity), price: d(price), fee: d(fee), at: at).events
    }

    static func coins(
        _ events: [TaxEvent],
        year: Int = 2027,
        _ method: TaxMethod,
        noCost: NoCostRule = .zero,
        deemed: [String: String] = [:]
    ) throws
        -> [String: CoinTaxYear]
    {
        let rows = try TaxYear.coins(events, year: year, method: method, noCost: noCost) { deemed[$0].map(d) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.coin, $0) })
    }

    static func rounded(_ value: Decimal, _ places: Int = 2) -> String { PortfolioLedger.text(value, scale: places) }

    @Test func theInstantIsMidnightInSeoul() {
        // 2027-01-01 00:00 KST = 2026-12-31 15:00 UTC = 1798729200 s.
        #expect(TaxRules.deemedInstant == 1_798_729_200_000)
        #expect(TaxRules.year(of: Self.t0) == 2027 && TaxRules.year(of: Self.t0 - 1) == 2026)
        #expect(TaxRules.yearStart(2028) - TaxRules.yearStart(2027) == 365 * Self.day)
        #expect(TaxRules.yearStart(2029) - TaxRules.yearStart(2028) == 366 * Self.day)
    }

    /// Bought 1 BTC in 2026 for 50,000,000 + 25,000 fee; the deemed price is 100,000,000.
    /// 2027-02 sell 0.5 at 120,000,000 (fee 30,000); 2027-06 buy 1 at 80,000,000 (fee 40,000).
    ///
    /// | method | opening | cost of the 0.5 sold | gain | closing 1.5 BTC cost |
    /// | total average | 100,000,000 (deemed, +49,975,000) | 0.5 × (100,000,000 + 80,040,000) / 2 = 45,010,000 | 14,960,000 | 135,030,000 |
    /// | moving average | 100,000,000 | 0.5 × 100,000,000 = 50,000,000 | 9,970,000 | 130,040,000 |
    /// | FIFO | 100,000,000 | 50,000,000 | 9,970,000 | 130,040,000 |
    static let deemedThenTrades: [TaxEvent] =
        trade("a", .buy, "BTC", "1", "50000000", fee: "25000", at: t0 - 30 * day)
        + trade("b", .sell, "BTC", "0.5", "120000000", fee: "30000", at: t0 + 40 * day)
        + trade("c", .buy, "BTC", "1", "80000000", fee: "40000", at: t0 + 160 * day)

    @Test(arguments: [
        (TaxMethod.totalAverage, "45010000", "14960000", "135030000"),
        (.movingAverage, "50000000", "9970000", "130040000"),
        (.fifo, "50000000", "9970000", "130040000"),
    ])
    func theDeemedCostOpensTheYear(method: TaxMethod, costOfSold: String, gain: String, closingCost: String) throws {
        let btc = try #require(try Self.coins(Self.deemedThenTrades, method, deemed: ["BTC": "100000000"])["BTC"])
        #expect(btc.opening == .deemed && btc.openingActualCost == 50_025_000 && btc.openingDeemedCost == 100_000_000)
        #expect(btc.openingCost == 100_000_000 && btc.openingQuantity == 1)
        #expect(btc.boughtQuantity == 1 && btc.boughtCost == 80_040_000 && btc.soldQuantity == Self.d("0.5"))
        #expect(btc.proceeds == 60_000_000 && btc.fees == 30_000)
        #expect(Self.rounded(btc.costOfSold) == costOfSold && Self.rounded(btc.gain) == gain)
        #expect(btc.closingQuantity == Self.d("1.5") && Self.rounded(btc.closingCost) == closingCost)
    }

    /// What was paid wins when the deemed price is lower: 1 BTC for 50,025,000, deemed 40,000,000.
    @Test func theActualCostWinsOverALowerDeemedPrice() throws {
        let btc = try #require(try Self.coins(Self.deemedThenTrades, .totalAverage, deemed: ["BTC": "40000000"])["BTC"])
        #expect(btc.opening == .actual && btc.openingCost == 50_025_000 && btc.openingDeemedCost == 40_000_000)
        // Average (50,025,000 + 80,040,000) / 2 = 65,032,500; 0.5 sold costs 32,516,250; gain 60,000,000 − 30,000 − 32,516,250.
        #expect(btc.averageCost == 65_032_500 && btc.gain == 27_453_750)
    }

    /// 2027: buy 1 at 10,000,000, buy 1 at 20,000,000, sell 1.5 at 30,000,000, buy 1 at 40,000,000.
    ///
    /// | method | cost of the 1.5 sold | gain (45,000,000 proceeds) | closing 1.5 cost |
    /// | total average | 1.5 × 70,000,000 / 3 = 35,000,000 | 10,000,000 | 35,000,000 |
    /// | moving average | 1.5 × 15,000,000 = 22,500,000 | 22,500,000 | 7,500,000 + 40,000,000 = 47,500,000 |
    /// | FIFO | 10,000,000 + 0.5 × 20,000,000 = 20,000,000 | 25,000,000 | 10,000,000 + 40,000,000 = 50,000,000 |
    @Test(arguments: [
        (TaxMethod.totalAverage, "35000000", "10000000", "35000000"),
        (.movingAverage, "22500000", "22500000", "47500000"),
        (.fifo, "20000000", "25000000", "50000000"),
    ])
    func partialSellsUnderEachMethod(method: TaxMethod, costOfSold: String, gain: String, closingCost: String) throws {
        let events =
            Self.trade("a", .buy, "BTC", "1", "10000000", at: Self.t0 + 30 * Self.day)
            + Self.trade("b", .buy, "BTC", "1", "20000000", at: Self.t0 + 60 * Self.day)
            + Self.trade("c", .sell, "BTC", "1.5", "30000000", at: Self.t0 + 90 * Self.day)
            + Self.trade("d", .buy, "BTC", "1", "40000000", at: Self.t0 + 120 * Self.day)
        let btc = try #require(try Self.coins(events, method)["BTC"])
        #expect(btc.opening == .actual && btc.openingQuantity == 0)
        #expect(Self.rounded(btc.costOfSold) == costOfSold && Self.rounded(btc.gain) == gain && Self.rounded(btc.closingCost) == closingCost)
    }

    /// A fee taken in the coin (Korbit's `feeCurrency`): buy 1 BTC at 100,000,000 paying 0.0005 BTC
    /// → 0.9995 BTC for 100,000,000. Sell 0.5 at 110,000,000 paying 0.0005 BTC → 0.5005 BTC leave
    /// for 55,000,000. Cost 100,000,000 × 0.5005 / 0.9995 = 50,075,037.52 → gain 4,924,962.48.
    @Test func feesTakenInTheCoin() throws {
        let events =
            TaxTrade(id: "a", side: .buy, base: "BTC", quantity: 1, price: 100_000_000, feeInBase: Self.d("0.0005"), at: Self.t0 + Self.day).events
            + TaxTrade(
                id: "b",
                side: .sell,
                base: "BTC",
                quantity: Self.d("0.5"),
                price: 110_000_000,
                feeInBase: Self.d("0.0005"),
                at: Self.t0 + 2 * Self.day
            )
            .events
        for method in TaxMethod.allCases {
            let btc = try #require(try Self.coins(events, method)["BTC"])
            #expect(btc.boughtQuantity == Self.d("0.9995") && btc.soldQuantity == Self.d("0.5005") && btc.proceeds == 55_000_000)
            #expect(Self.rounded(btc.costOfSold) == "50075037.52" && Self.rounded(btc.gain) == "4924962.48", "\(method)")
            #expect(btc.closingQuantity == Self.d("0.499"))
        }
    }

    /// A BTC-market trade: buy 1 BTC for 100,000,000; on BTC-ETH buy 10 ETH at 0.05 BTC with a
    /// 0.00125 BTC fee while KRW-BTC is 120,000,000 → ETH costs 0.50125 × 120,000,000 = 60,150,000
    /// and 0.50125 BTC are disposed of for that much: BTC gain 60,150,000 − 50,125,000 = 10,025,000.
    /// Sell the 10 ETH at 7,000,000 (fee 35,000): ETH gain 70,000,000 − 35,000 − 60,150,000 = 9,815,000.
    @Test func aCoinMarketTradeIsValuedThroughItsBaseCoin() throws {
        let events =
            Self.trade("a", .buy, "BTC", "1", "100000000", at: Self.t0 + Self.day)
            + TaxTrade(
                id: "b",
                side: .buy,
                base: "ETH",
                quote: "BTC",
                quantity: 10,
                price: Self.d("0.05"),
                fee: Self.d("0.00125"),
                quoteKRW: 120_000_000,
                at: Self.t0 + 2 * Self.day
            ).events
            + Self.trade("c", .sell, "ETH", "10", "7000000", fee: "35000", at: Self.t0 + 3 * Self.day)
        let rows = try Self.coins(events, .totalAverage)
        let btc = try #require(rows["BTC"])
        let eth = try #require(rows["ETH"])
        #expect(btc.soldQuantity == Self.d("0.50125") && btc.proceeds == 60_150_000 && btc.gain == 10_025_000)
        #expect(eth.boughtCost == 60_150_000 && eth.gain == 9_815_000)
        #expect(btc.closingQuantity == Self.d("0.49875"))
    }

    /// Units without a cost: 100 XYZ airdropped in 2027 and sold at 1,000 → 100,000. At cost 0 the
    /// gain is 100,000; with half the proceeds as their cost, 50,000. 100 ABC airdropped in 2026
    /// take the deemed price (500 → 50,000) and their sale at 1,000 gains 50,000 either way.
    @Test(arguments: [(NoCostRule.zero, "100000"), (.halfOfProceeds, "50000")])
    func unitsWithoutACost(rule: NoCostRule, gain: String) throws {
        let events =
            [
                TaxEvent(id: "a", coin: "XYZ", kind: .transferIn, quantity: 100, krw: 0, at: Self.t0 + Self.day),
                TaxEvent(id: "b", coin: "ABC", kind: .transferIn, quantity: 100, krw: 0, at: Self.t0 - Self.day),
            ] + Self.trade("c", .sell, "XYZ", "100", "1000", at: Self.t0 + 2 * Self.day)
            + Self.trade("d", .sell, "ABC", "100", "1000", at: Self.t0 + 2 * Self.day)
        for method in TaxMethod.allCases {
            let rows = try Self.coins(events, method, noCost: rule, deemed: ["ABC": "500"])
            let xyz = try #require(rows["XYZ"])
            let abc = try #require(rows["ABC"])
            #expect(xyz.uncostedQuantity == 100 && Self.rounded(xyz.gain, 0) == gain, "\(method)")
            #expect(abc.opening == .deemed && abc.openingCost == 50_000 && abc.gain == 50_000 && abc.uncostedQuantity == 0, "\(method)")
        }
    }

    /// The holder's own transfer is not a sale: 1 BTC bought in 2026 for 50,000,000 (deemed
    /// 100,000,000) leaves Upbit (fee 10,000) and arrives at Bithumb typed at 130,000,000 — it
    /// keeps its cost — and is sold there at 120,000,000: 120,000,000 − 10,000 − 100,000,000.
    @Test func anOwnTransferKeepsItsCost() throws {
        let events =
            Self.trade("a", .buy, "BTC", "1", "50000000", at: Self.t0 - Self.day) + [
                TaxEvent(id: "b", coin: "BTC", kind: .transferOut, quantity: 1, krw: 0, fee: 10_000, at: Self.t0 + Self.day),
                TaxEvent(id: "c", coin: "BTC", kind: .transferIn, quantity: 1, krw: 130_000_000, at: Self.t0 + 2 * Self.day),
            ] + Self.trade("d", .sell, "BTC", "1", "120000000", at: Self.t0 + 3 * Self.day)
        for method in TaxMethod.allCases {
            let btc = try #require(try Self.coins(events, method, deemed: ["BTC": "100000000"])["BTC"])
            #expect(btc.gain == 19_990_000 && btc.boughtQuantity == 0 && btc.closingQuantity == 0, "\(method)")
        }
    }

    /// The next year opens on the last one's closing: 1.5 BTC costing 135,030,000 (total average,
    /// first table) sold in 2028 at 100,000,000 → 150,000,000 − 135,030,000 = 14,970,000.
    @Test func aLaterYearCarriesTheClosingCost() throws {
        let events = Self.deemedThenTrades + Self.trade("e", .sell, "BTC", "1.5", "100000000", at: TaxRules.yearStart(2028) + Self.day)
        let btc = try #require(try Self.coins(events, year: 2028, .totalAverage, deemed: ["BTC": "100000000"])["BTC"])
        #expect(btc.opening == .carried && btc.openingQuantity == Self.d("1.5") && btc.openingCost == 135_030_000)
        #expect(btc.gain == 14_970_000 && btc.closingQuantity == 0)
    }

    @Test func refusals() throws {
        #expect(throws: TaxYearError.notTaxed(year: 2026)) { try Self.coins(Self.deemedThenTrades, year: 2026, .totalAverage) }
        let oversold =
            Self.trade("a", .buy, "BTC", "1", "1000", at: Self.t0 + Self.day) + Self.trade("b", .sell, "BTC", "2", "1000", at: Self.t0 + 2 * Self.day)
        for method in TaxMethod.allCases {
            #expect(throws: TaxYearError.moreThanHeld(id: "b", coin: "BTC")) { try Self.coins(oversold, method) }
        }
        let negative = [TaxEvent(id: "x", coin: "BTC", kind: .acquire, quantity: -1, krw: 1, at: Self.t0 + Self.day)]
        #expect(throws: TaxYearError.invalid(id: "x")) { try Self.coins(negative, .fifo) }
    }
}
