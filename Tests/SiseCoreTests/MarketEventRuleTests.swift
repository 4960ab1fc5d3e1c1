import Foundation
import SiseCore
import Testing

/// The history's rule: what a look at an exchange changes against the store's last values, and
/// the event each change makes — as a table of (stored, seen, expected events).
@Suite struct MarketEventRuleTests {
    static func listing(_ symbol: String, _ quote: String = "KRW") -> MarketAspect {
        MarketAspect(exchange: .upbit, symbol: symbol, aspect: .listing, scope: quote)
    }
    static func flag(_ symbol: String) -> MarketAspect { MarketAspect(exchange: .upbit, symbol: symbol, aspect: .flag, scope: "") }
    static func deposit(_ symbol: String, _ network: String) -> MarketAspect {
        MarketAspect(exchange: .upbit, symbol: symbol, aspect: .deposit, scope: network)
    }
    static func withdraw(_ symbol: String, _ network: String) -> MarketAspect {
        MarketAspect(exchange: .upbit, symbol: symbol, aspect: .withdraw, scope: network)
    }
    static func market(_ code: String, warning: Bool = false, cautions: [String] = [], level: CautionLevel? = nil) -> Market {
        Market(id: MarketID(code)!, koreanName: code, englishName: code, warning: warning, cautions: cautions, cautionLevel: level)
    }
    static func wallet(_ symbol: String, _ network: String, deposit: Bool?, withdraw: Bool?) -> WalletStatus {
        WalletStatus(exchange: .upbit, currency: symbol, network: network, deposit: deposit, withdraw: withdraw)
    }

    /// Ten coins listed on KRW, clear, a look seeing them all again.
    static let tenListed: [MarketAspect: String] = {
        var stored: [MarketAspect: String] = [:]
        for index in 0..<10 {
            stored[listing("C\(index)")] = "1"
            stored[flag("C\(index)")] = ""
        }
        return stored
    }()
    static var tenMarkets: [Market] { (0..<10).map { market("KRW-C\($0)") } }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let stored: [MarketAspect: String]
        let markets: [Market]?
        let wallets: [WalletStatus]?
        /// (coin, kind) of each event, in order.
        let events: [String]
        var doubted = 0
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a first look is a baseline: nothing happened", stored: [:], markets: tenMarkets, wallets: nil, events: []),
        Row(name: "the same again: nothing", stored: tenListed, markets: tenMarkets, wallets: nil, events: []),
        Row(
            name: "a new market on a known exchange is a listing; its flag a baseline",
            stored: tenListed,
            markets: tenMarkets + [market("KRW-NEW", cautions: ["GLOBAL_PRICE_DIFFERENCES"])],
            wallets: nil,
            events: ["NEW listed KRW"]
        ),
        Row(
            name: "a coin gone from the list is delisted",
            stored: tenListed,
            markets: Array(tenMarkets.dropLast()),
            wallets: nil,
            events: ["C9 delisted KRW"]
        ),
        Row(
            name: "a list short of more than a fifth is doubted, not a wave of delistings",
            stored: tenListed,
            markets: Array(tenMarkets.prefix(5)),
            wallets: nil,
            events: [],
            doubted: 5
        ),
        Row(
            name: "an empty list is doubted",
            stored: tenListed,
            markets: [],
            wallets: nil,
            events: [],
            doubted: 10
        ),
        Row(
            name: "a coin back on a quote it left is listed again",
            stored: tenListed.merging([listing("C0", "BTC"): "0"]) { a, _ in a },
            markets: tenMarkets + [market("BTC-C0")],
            wallets: nil,
            events: ["C0 listed BTC"]
        ),
        Row(
            name: "flagged with a reason, its grade raised, then cleared",
            stored: tenListed.merging([flag("C2"): "||GLOBAL_PRICE_DIFFERENCES"]) { _, b in b },
            markets: tenMarkets.map {
                $0.symbol == "C1"
                    ? market("KRW-C1", cautions: ["TRADING_VOLUME_SOARING"])
                    : $0.symbol == "C3" ? market("KRW-C3", warning: true) : $0
            },
            wallets: nil,
            events: ["C1 flagged ||TRADING_VOLUME_SOARING", "C2 cleared ||GLOBAL_PRICE_DIFFERENCES", "C3 flagged W||"]
        ),
        Row(
            name: "a look whose flag list could not be read says nothing of flags: none is cleared, the listings still count",
            stored: tenListed.merging([flag("C2"): "||GLOBAL_PRICE_DIFFERENCES", flag("C3"): "W||"]) { _, b in b },
            markets: Array(tenMarkets.dropLast()).map(\.flagsUnknown),
            wallets: nil,
            events: ["C9 delisted KRW"]
        ),
        Row(
            name: "a wallet shut and one reopened; an unknown state is no change; first networks are baselines",
            stored: [deposit("BTC", "BTC"): "1", withdraw("BTC", "BTC"): "1", deposit("ETH", "ETH"): "0", withdraw("ETH", "ETH"): "1"],
            markets: nil,
            wallets: [
                wallet("BTC", "BTC", deposit: false, withdraw: true), wallet("ETH", "ETH", deposit: true, withdraw: nil),
                wallet("USDT", "TRX", deposit: false, withdraw: false),
            ],
            events: ["BTC depositSuspended BTC", "ETH depositReopened ETH"]
        ),
        Row(
            name: "wallets without a market list never delist anything",
            stored: tenListed,
            markets: nil,
            wallets: [wallet("C0", "C0", deposit: true, withdraw: true)],
            events: []
        ),
    ]

    @Test(arguments: rows) func changes(row: Row) {
        let observation =
            row.markets.map { MarketEventRule.Observation(exchange: .upbit, markets: $0, wallets: row.wallets) }
            ?? MarketEventRule.Observation(exchange: .upbit, wallets: row.wallets)
        let outcome = MarketEventRule.changes(stored: row.stored, observation: observation)
        let events = outcome.changes.compactMap { change -> String? in
            guard let kind = change.kind else { return nil }
            let detail = change.flag?.encoded ?? change.aspect.scope
            return "\(change.aspect.symbol) \(kind.rawValue) \(detail)"
        }
        #expect(events == row.events)
        #expect(outcome.doubtedDelistings == row.doubted)
    }

    /// A name lent by another exchange keeps whether the flags were read (Korbit's markets go
    /// through the lender: an unread alert list must stay unread, never become "no flags").
    @Test func aLentNameKeepsTheFlagsAndWhetherTheyWereRead() {
        let unread = Self.market("KRW-C1", cautions: ["X"], level: .caution).flagsUnknown
        #expect(unread.renamed(korean: "코인", english: "Coin").flagsKnown == false)
        let read = Self.market("KRW-C2", warning: true, cautions: ["Y"], level: .danger)
        let lent = read.renamed(korean: "코인", english: "Coin")
        #expect(lent.flagsKnown && lent.warning && lent.cautions == ["Y"] && lent.cautionLevel == .danger && lent.koreanName == "코인")
    }

    @Test func aFirstLookStoresEveryValueAsABaseline() {
        let outcome = MarketEventRule.changes(
            stored: [:],
            observation: .init(exchange: .upbit, markets: [Self.market("KRW-BTC"), Self.market("BTC-ETH", cautions: ["PRICE_FLUCTUATIONS"])])
        )
        #expect(outcome.changes.count == 4)
        #expect(outcome.changes.allSatisfy { $0.kind == nil && $0.old == nil })
        #expect(outcome.changes.first { $0.aspect == Self.flag("ETH") }?.new == "||PRICE_FLUCTUATIONS")
    }

    @Test func aFlagIsOneLineThereAndBack() {
        let flag = MarketFlag(warning: true, level: .danger, reasons: ["price_fluctuations", "A|B,C", "PRICE_FLUCTUATIONS"])
        #expect(flag.encoded == "W|danger|ABC,PRICE_FLUCTUATIONS")
        #expect(MarketFlag(encoded: flag.encoded) == flag)
        #expect(MarketFlag(encoded: "") == MarketFlag())
        #expect(MarketFlag(encoded: "garbage|||") == MarketFlag())
        #expect(
            MarketFlag(markets: [Self.market("KRW-X", cautions: ["B"], level: .caution), Self.market("BTC-X", cautions: ["A"], level: .warning)])
                .encoded == "|warning|A,B"
        )
    }

    @Test func eventsInWords() {
        let at: Int64 = 1_800_000_000_000
        var event = MarketEvent(
            id: 1,
            exchange: .upbit,
            symbol: "XRP",
            kind: .flagged,
            scope: "",
            flag: MarketFlag(warning: true, reasons: ["TRADING_VOLUME_SOARING"]),
            at: at,
            price: 1_000
        )
        #expect(event.text(.ko) == "유의 지정: 거래량 급등")
        #expect(event.text(.en) == "flagged Warning: trading volume surge")
        event.kind = .cleared
        #expect(event.text(.ko) == "유의 해제")
        event = MarketEvent(id: 2, exchange: .bithumb, symbol: "ETH", kind: .depositSuspended, scope: "ETH", at: at, price: 100, later: [.hour: 103])
        #expect(event.text(.ko) == "입금 중단 (ETH)")
        #expect(event.state(.hour, now: at) == .recorded && event.change(.hour).map { abs($0 - 3) < 1e-9 } == true)
        #expect(event.state(.day, now: at + 86_400_000) == .pending)
        #expect(event.state(.day, now: at + 86_400_000 + 7_200_001) == .missed)
        let table = MarketEventsTable(events: [event], now: at + 90_000_000, language: .en)
        #expect(table.events[0].later.map(\.text) == ["+3.00%", "pending", "pending"])
        #expect(table.events[0].later.map(\.tone) == ["rise", "even", "even"])
        #expect(MarketEvent.Kind.filter("listing,depositSuspended") == [.listed, .delisted, .depositSuspended])
        #expect(MarketEvent.Kind.filter("listing,nope") == nil)
    }
}
