import Foundation
import SiseCore
import SiseTestSupport
import Testing

@Suite struct FormattingTests {
    let ko = MarketFormatter(language: .ko)
    let en = MarketFormatter(language: .en)

    @Test(arguments: [
        (0.000482, "0.0004820"),
        (0.00854, "0.008540"),
        (0.00001234, "0.00001234"),
        (0.878, "0.8780"),
        (7.51, "7.510"),
        (45.2, "45.20"),
        (901.0, "901"),
        (1_463.0, "1,463"),
        (103_493_000.0, "103,493,000"),
    ])
    func krwPricesFollowTheMagnitudeRuleWithoutATick(price: Double, expected: String) {
        #expect(ko.price(price, quote: "KRW") == expected)
    }

    @Test func theExchangeTickWinsOverTheMagnitudeRule() {
        #expect(ko.price(103_493_000, quote: "KRW", tick: 1_000) == "103,493,000")
        #expect(ko.price(0.000482, quote: "KRW", tick: TickSize.parse("0.000001")) == "0.000482")
        #expect(ko.price(150.5, quote: "KRW", tick: TickSize.parse("0.1")) == "150.5")
        #expect(ko.price(2_045, quote: "KRW", tick: TickSize.parse("1")) == "2,045")
        #expect(TickSize.decimals(ofTick: TickSize.parse("0.00000001")!) == 8)
        #expect(TickSize.decimals(ofTick: TickSize.parse("1000")!) == 0)
        #expect(TickSize.parse("abc") == nil)
        #expect(TickSize.parse("-1") == nil)
    }

    @Test func btcAndUsdtMarkets() {
        #expect(ko.price(0.00012345, quote: "BTC") == "0.00012345")
        #expect(ko.price(0.029, quote: "BTC") == "0.02900000")
        #expect(ko.price(70_123.456, quote: "USDT") == "70,123.46")
        #expect(ko.price(2.3456, quote: "USDT") == "2.346")
        #expect(ko.price(0.12345, quote: "USDT") == "0.1235")
        #expect(ko.tradeValue(12.34567, quote: "BTC") == "12.346 BTC")
        #expect(en.tradeValue(1_234_567.8, quote: "USDT") == "1,234,568 USDT")
    }

    @Test func ratesAreSignedWithTwoDecimals() {
        #expect(ko.rate(0.0105060683) == "+1.05%")
        #expect(ko.rate(-0.0032) == "-0.32%")
        #expect(ko.rate(0) == "0.00%")
        #expect(ko.rate(-0.00001) == "0.00%")
        #expect(ko.rate(0.1266) == "+12.66%")
    }

    @Test func tradeValueInMillions() {
        #expect(ko.tradeValue(162_997_300_132.123, quote: "KRW") == "162,997백만")
        #expect(en.tradeValue(162_997_300_132.123, quote: "KRW") == "162,997M")
        #expect(ko.tradeValue(400_000, quote: "KRW") == "0백만")
    }

    @Test func rowDisplayUsesThePriceDecimalsForTheChangeAmount() {
        let id = MarketID("KRW-BTC")!
        let row = MarketRow(
            market: Market(id: id, koreanName: "비트코인", englishName: "Bitcoin"),
            ticker: Ticker(
                market: id,
                price: 103_493_000,
                change: .rise,
                signedChangePrice: 1_076_000,
                signedChangeRate: 0.0105060683,
                tradeValue24h: 162_997_300_132.123
            ),
            tickSize: 1_000,
            exchange: .upbit
        )
        #expect(
            ko.display(row)
                == RowDisplay(
                    price: "103,493,000",
                    changeRate: "+1.05%",
                    changePrice: "+1,076,000",
                    tradeValue: "162,997백만",
                    tradeValueShort: "1,630억"
                )
        )
        #expect(en.display(row).tradeValueShort == "163.0B", "a phone's narrow column: never 162,997M cut")
        // Issue 83.9: a BTC or USDT board's short 거래대금 (`42.735 BTC`, `2,962,039 USDT`) was cut on a
        // phone; short, it drops the unit (the head says it) and compacts what is large.
        #expect(ko.shortTradeValue(42.7351, quote: "BTC") == "42.735" && ko.shortTradeValue(1_234.56, quote: "BTC") == "1,235")
        #expect(ko.shortTradeValue(2_962_039, quote: "USDT") == "296만" && en.shortTradeValue(2_962_039, quote: "USDT") == "3.0M")
        #expect(ko.shortTradeValue(9_876, quote: "USDT") == "9,876" && ko.shortTradeValue(.nan, quote: "USDT") == "-")
        let small = MarketRow(
            market: Market(id: MarketID("KRW-SHIB")!, koreanName: "시바이누", englishName: "Shiba Inu"),
            ticker: Ticker(
                market: MarketID("KRW-SHIB")!,
                price: 0.00854,
                change: .fall,
                signedChangePrice: -0.00002,
                signedChangeRate: -0.0023,
                tradeValue24h: 1
            ),
            exchange: .upbit
        )
        #expect(en.display(small).changePrice == "-0.000020")
        #expect(en.display(small).price == "0.008540")
    }

    @Test func groupingNeverPrintsNegativeZero() {
        #expect(NumberText.grouped(-0.0000001, decimals: 2) == "0.00")
        #expect(NumberText.signed(-0.0000001, decimals: 0) == "0")
        #expect(NumberText.grouped(1_234_567.891, decimals: 2) == "1,234,567.89")
        #expect(NumberText.grouped(-1_234, decimals: 0) == "-1,234")
        #expect(NumberText.grouped(999_999.5, decimals: 0) == "1,000,000")
    }

    @Test func groupingHandlesEveryFiniteMagnitude() {
        #expect(NumberText.grouped(0, decimals: 0) == "0")
        #expect(NumberText.grouped(999, decimals: 0) == "999")
        #expect(NumberText.grouped(1_000, decimals: 0) == "1,000")
        #expect(NumberText.grouped(-0.5, decimals: 0) == "0")
        #expect(NumberText.grouped(-12_345.678, decimals: 1) == "-12,345.7")
        #expect(NumberText.grouped(0.1, decimals: 99) == "0.100000000000", "decimals are capped at 12")
        #expect(NumberText.grouped(5, decimals: -3) == "5")
        #expect(NumberText.grouped(.nan, decimals: 2) == "-")
        #expect(NumberText.grouped(-.infinity, decimals: 2) == "-")
        let largest = NumberText.grouped(-Double.greatestFiniteMagnitude, decimals: 12)
        #expect(largest.hasPrefix("-179,769,313,486,231,570,"))
        #expect(largest.hasSuffix(",124,858,368.000000000000"), "printf prints the exact value")
        #expect(largest.count == 1 + 309 + 102 + 13)
    }
}

/// The integer printer behind every number on every face, held to C's printf on the same values.
@Suite struct FixedPointTests {
    /// printf's text, grouped the plain way (the oracle).
    static func reference(_ value: Double, _ places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        let integer = parts.first ?? ""
        var grouped = ""
        for (index, char) in integer.enumerated() {
            if index > 0 && (integer.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(char)
        }
        let body = grouped + (parts.count > 1 ? "." + parts[1] : "")
        return negative && body.contains(where: { ("1"..."9").contains($0) }) ? "-" + body : body
    }

    @Test func tiesGoToEvenAsPrintfDoes() {
        for (value, places) in [
            (0.5, 0), (1.5, 0), (2.5, 0), (0.125, 2), (0.375, 2), (1.005, 2), (-2.5, 0), (999_999.5, 0),
            (0.000_000_000_000_5, 12), (Double.leastNonzeroMagnitude, 12), (Double.leastNormalMagnitude, 12),
        ] {
            #expect(NumberText.grouped(value, decimals: places) == Self.reference(value, places), "\(value) \(places)")
        }
    }

    @Test func randomValuesOfEveryMagnitudeMatchPrintf() {
        var generator = SeededGenerator(seed: 19)
        for _ in 0..<50_000 {
            let exponent = Double.random(in: -16...27, using: &generator)
            let sign: Double = Bool.random(using: &generator) ? -1 : 1
            let value = sign * Double.random(in: 1..<10, using: &generator) * Foundation.pow(10, exponent.rounded(.down))
            let places = Int.random(in: 0...12, using: &generator)
            let mine = NumberText.grouped(value, decimals: places)
            let theirs = Self.reference(value, places)
            if mine != theirs {
                Issue.record("\(value) with \(places) places: \(mine) ≠ printf's \(theirs)")
                return
            }
        }
        // Ungrouped, as the simulator spells exchanges' numbers: printf's very text, sign and all.
        for _ in 0..<20_000 {
            let value = Double.random(in: -1...1, using: &generator) * Foundation.pow(10, Double.random(in: -9...14, using: &generator))
            for places in [2, 8, 10] where NumberText.fixed(value, decimals: places) != String(format: "%.\(places)f", value) {
                Issue.record("\(value) with \(places) places, ungrouped: \(NumberText.fixed(value, decimals: places))")
                return
            }
        }
        for (value, places) in [(-0.0, 2), (-0.000_000_001, 8), (1e300, 8), (Double.infinity, 2), (-Double.nan, 2)] {
            #expect(NumberText.fixed(value, decimals: places) == String(format: "%.\(places)f", value), "\(value) \(places)")
        }
        // Whole numbers, halves and values on a tick (prices as exchanges quote them).
        for cents in stride(from: -200_000, through: 200_000, by: 7) {
            let value = Double(cents) / 200
            for places in [0, 1, 2] where NumberText.grouped(value, decimals: places) != Self.reference(value, places) {
                Issue.record("\(value) with \(places) places")
                return
            }
        }
    }
}

/// NFT floors: decided once here for every face (the page once printed 9.370000000000001 ETH).
@Suite struct FloorPriceTests {
    @Test func floorsHaveAtMostFourDecimalsAndNoBinaryTails() {
        let f = MarketFormatter(language: .ko)
        #expect(f.floorPrice(9.370000000000001, currency: "eth") == "9.37 ETH")
        #expect(f.floorPrice(3.8299999999999996, currency: "ETH") == "3.83 ETH")
        #expect(f.floorPrice(0.012345, currency: "ETH") == "0.0123 ETH")
        #expect(f.floorPrice(1_250, currency: "sol") == "1,250 SOL")
        #expect(f.floorPrice(2, currency: nil) == "2")
        #expect(f.floorPrice(nil, currency: "ETH") == "-")
        #expect(f.floorPrice(.nan, currency: "ETH") == "-")
    }
}
