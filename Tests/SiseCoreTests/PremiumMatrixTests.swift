import Foundation
import SiseCore
import Testing

/// The matrix's rules as tables: when a cell is a premium (legs fresh and close), stale, missing,
/// without a rate, or a doubt (another coin under the ticker), and how rows are ordered.
@Suite struct PremiumMatrixTests {
    static let now: Int64 = 1_795_914_000_000
    static let fx = FXQuote(krwPerUSD: 1_400, at: now - 60_000, source: .dunamu)

    @Test(arguments: [
        // KRW price, its age; USDT price, its age → state, premium
        (140_000.0, Int64(1_000), 100.0, Int64(2_000), PremiumMatrix.State.live, 0.0 as Double?),
        (142_800, 1_000, 100, 1_000, .live, 0.02),
        (142_800, 1_000, 100, 1_000 + PremiumMatrix.legsApart + 1, .stale, nil),
        (142_800, PremiumMatrix.freshness + 1, 100, PremiumMatrix.freshness + 1, .stale, nil),
        (142_800, -5_000, 100, 0, .stale, nil),
        (300_000, 1_000, 100, 1_000, .doubt, nil),
        (1_400, 1_000, 100, 1_000, .doubt, nil),
    ])
    func oneCell(_ krw: Double, _ krwAge: Int64, _ usdt: Double, _ usdtAge: Int64, _ state: PremiumMatrix.State, _ premium: Double?) {
        let cell = PremiumMatrix.cell(
            PremiumMatrix.Leg(price: krw, at: Self.now - krwAge),
            VenueQuote(price: usdt, at: Self.now - usdtAge),
            fx: Self.fx,
            now: Self.now
        )
        #expect(cell.state == state)
        if let premium { #expect(abs((cell.premium ?? .nan) - premium) < 1e-12) } else { #expect(cell.premium == nil) }
    }

    @Test func missingLegsAndNoRate() {
        let leg = PremiumMatrix.Leg(price: 1, at: Self.now)
        let quote = VenueQuote(price: 1, at: Self.now)
        #expect(PremiumMatrix.cell(nil, quote, fx: Self.fx, now: Self.now).state == .missing)
        #expect(PremiumMatrix.cell(leg, nil, fx: Self.fx, now: Self.now).state == .missing)
        #expect(PremiumMatrix.cell(leg, quote, fx: nil, now: Self.now).state == .noRate)
        let old = FXQuote(krwPerUSD: 1_400, at: Self.now - KimchiPremium.bound(.upbitUSDT) - 1, source: .upbitUSDT)
        #expect(PremiumMatrix.cell(leg, quote, fx: old, now: Self.now).state == .noRate, "a stale rate is no rate")
    }

    /// A venue whose price for the coin is far from the coin's other cells lists another coin.
    @Test func aCellFarFromTheCoinsOthersIsADoubt() throws {
        let legs: [Exchange: [String: PremiumMatrix.Leg]] = [
            .upbit: ["XYZ": .init(price: 1_428, at: Self.now, tradeValue24h: 5)],
            .bithumb: ["XYZ": .init(price: 1_430, at: Self.now, tradeValue24h: 9)],
        ]
        let venues: [GlobalVenue: [String: VenueQuote]] = [
            .binance: ["XYZ": VenueQuote(price: 1, at: Self.now)],
            .okx: ["XYZ": VenueQuote(price: 0.8, at: Self.now)],
            .bybit: ["XYZ": VenueQuote(price: 1.001, at: Self.now)],
        ]
        let row = try #require(PremiumMatrix.rows(korean: legs, venues: venues, fx: Self.fx, now: Self.now).first)
        #expect(row.cell(.upbit, .binance).state == .live && row.cell(.upbit, .bybit).state == .live)
        #expect(row.cell(.upbit, .okx).state == .doubt && row.cell(.bithumb, .okx).state == .doubt, "+27.5 % against the others' +2 %")
        #expect(row.cell(.korbit, .binance).state == .missing)
        #expect(row.tradeValue == 9)
    }

    /// Issue 83.6: an unreachable venue's cells said `missing`, which means "not listed there".
    @Test func aVenueNotReadAtAllIsUnavailableNotMissing() {
        let korean: [Exchange: [String: PremiumMatrix.Leg]] = [
            .upbit: ["BTC": .init(price: 142_800, at: Self.now), "XYZ": .init(price: 1, at: Self.now)]
        ]
        let venues: [GlobalVenue: [String: VenueQuote]] = [.binance: ["BTC": .init(price: 100, at: Self.now)]]
        let rows = PremiumMatrix.rows(korean: korean, venues: venues, fx: Self.fx, now: Self.now)
        let btc = rows.first { $0.symbol == "BTC" }
        let xyz = rows.first { $0.symbol == "XYZ" }
        #expect(btc?.cell(.upbit, .binance).state == .live)
        #expect(btc?.cell(.upbit, .okx).state == .unavailable && btc?.cell(.upbit, .bybit).state == .unavailable)
        #expect(xyz?.cell(.upbit, .binance).state == .missing, "Binance was read and does not list it")
        #expect(btc?.cell(.korbit, .okx).state == .missing, "Korbit does not list it")
    }

    @Test func rowsByTradeValueAndByOneCellsPremiumUnknownLast() {
        func legs(_ price: Double, _ value: Double) -> PremiumMatrix.Leg { .init(price: price, at: Self.now, tradeValue24h: value) }
        let korean: [Exchange: [String: PremiumMatrix.Leg]] = [
            .upbit: ["A": legs(1_414, 1), "B": legs(1_442, 3), "C": legs(1_428, 2), "D": legs(1_400, 4)]
        ]
        let venues: [GlobalVenue: [String: VenueQuote]] = [
            .okx: ["A": .init(price: 1, at: Self.now), "B": .init(price: 1, at: Self.now), "C": .init(price: 1, at: Self.now)]
        ]
        let rows = PremiumMatrix.rows(korean: korean, venues: venues, fx: Self.fx, now: Self.now)
        #expect(rows.map(\.symbol) == ["D", "B", "C", "A"], "by trade value")
        #expect(PremiumMatrix.sorted(rows, by: .upbit, .okx).map(\.symbol) == ["B", "C", "A", "D"])
        #expect(PremiumMatrix.sorted(rows, by: .upbit, .okx, descending: false).map(\.symbol) == ["A", "C", "B", "D"])
        let query = PremiumMatrixQuery(venues: [.okx], exchanges: [.upbit], sortByPremium: true, symbols: ["A", "B", "D"], limit: 2)
        #expect(query.apply(rows).map(\.symbol) == ["B", "A"])
        #expect(PremiumMatrixQuery(limit: 10_000).limit == PremiumMatrixQuery.maxLimit)
    }

    @Test func theTableSaysEachCellInWordsAndNamesTheRate() throws {
        let korean: [Exchange: [String: PremiumMatrix.Leg]] = [.upbit: ["BTC": .init(price: 142_800, at: Self.now)]]
        let venues: [GlobalVenue: [String: VenueQuote]] = [.binance: ["BTC": .init(price: 100, at: Self.now)]]
        let rows = PremiumMatrix.rows(korean: korean, venues: venues, fx: Self.fx, now: Self.now)
        let table = PremiumMatrixTable(
            rows: rows,
            query: PremiumMatrixQuery(venues: [.binance, .okx], exchanges: [.upbit, .korbit]),
            decision: FXDecision(chosen: .dunamu, quote: Self.fx),
            venueStates: [.binance: ("live", Self.now, nil)],
            names: ["BTC": "비트코인"],
            language: .ko
        )
        let row = try #require(table.rows.first)
        #expect(row.name == "비트코인" && row.cells["upbit"]?["binance"]?.display == "+2.00%")
        #expect(row.cells["upbit"]?["okx"]?.display == "-" && row.cells["korbit"]?["binance"]?.state == .missing)
        #expect(table.venues.map(\.state) == ["live", "waiting"])
        #expect(table.display["fx"] == "환율 하나은행 고시 1,400.0" && table.unavailable == nil)
    }
}
