import Foundation
import SiseCore
import Synchronization
import Testing

/// The one FX rule as a table: the chosen source × which sources are down (or stale) × a
/// configured Eximbank key → the rate in use, whether it is a stand-in, and what faces say.
@Suite struct FXPlanTests {
    static let now: Int64 = 1_795_914_000_000
    static let rates: [FXSource: Double] = [.upbitUSDT: 1_420, .dunamu: 1_394.5, .eximbank: 1_393.8, .coingecko: 1_396.1]

    static func readings(down: Set<FXSource>, stale: Set<FXSource> = []) -> [FXSource: FXReading] {
        var readings: [FXSource: FXReading] = [:]
        for source in FXSource.allCases {
            if down.contains(source) {
                readings[source] = .failed(Words(ko: "HTTP 503", en: "HTTP 503"))
            } else {
                let age = stale.contains(source) ? KimchiPremium.bound(source) + 1 : 1_000
                readings[source] = .rate(FXQuote(krwPerUSD: rates[source] ?? 0, at: now - age, source: source))
            }
        }
        return readings
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var chosen: FXSource
        var down: Set<FXSource>
        var stale: Set<FXSource> = []
        var key = true
        /// The source in use (nil: none).
        var used: FXSource?
        /// The official rate's source (nil: none).
        var official: FXSource?
        var testDescription: String {
            "\(chosen.rawValue), down \(down.map(\.rawValue).sorted()), stale \(stale.map(\.rawValue).sorted()), key \(key)"
        }
    }

    static let table: [Row] = [
        Row(chosen: .upbitUSDT, down: [], used: .upbitUSDT, official: .dunamu),
        Row(chosen: .upbitUSDT, down: [.upbitUSDT], used: .dunamu, official: .dunamu),
        Row(chosen: .upbitUSDT, down: [.dunamu], used: .upbitUSDT, official: .eximbank),
        Row(chosen: .upbitUSDT, down: [.dunamu], key: false, used: .upbitUSDT, official: nil),
        Row(chosen: .upbitUSDT, down: [.upbitUSDT, .dunamu, .eximbank], used: nil, official: nil),
        Row(chosen: .dunamu, down: [], used: .dunamu, official: .dunamu),
        Row(chosen: .dunamu, down: [.dunamu], used: .eximbank, official: .eximbank),
        Row(chosen: .dunamu, down: [.dunamu], key: false, used: .upbitUSDT, official: nil),
        Row(chosen: .dunamu, down: [], stale: [.dunamu], used: .eximbank, official: .eximbank),
        Row(chosen: .dunamu, down: [.dunamu, .eximbank], used: .upbitUSDT, official: nil),
        Row(chosen: .eximbank, down: [], used: .eximbank, official: .eximbank),
        Row(chosen: .eximbank, down: [.eximbank], used: .dunamu, official: .dunamu),
        Row(chosen: .coingecko, down: [], used: .coingecko, official: .dunamu),
        Row(chosen: .coingecko, down: [.coingecko], used: .dunamu, official: .dunamu),
        Row(chosen: .coingecko, down: [.coingecko, .dunamu, .eximbank, .upbitUSDT], used: nil, official: nil),
    ]

    @Test(arguments: table)
    func theRateInUseAndWhatFacesSay(_ row: Row) async {
        let plan = FXPlan(chosen: row.chosen, eximbankKey: row.key)
        let readings = Self.readings(down: row.down, stale: row.stale).filter { plan.available.contains($0.key) }
        let decision = plan.decide(readings, now: Self.now)
        #expect(decision.quote?.source == row.used)
        #expect(decision.chosen == row.chosen)
        #expect(decision.fallback == (row.used != nil && row.used != row.chosen))
        #expect(plan.official(readings, now: Self.now).quote?.source == row.official)
        // Walking the sources reaches the same decision, reading none past the one in use.
        let asked = Mutex<[FXSource]>([])
        let walked = await FXPlan.resolve(plan.order, now: Self.now) { source in
            asked.withLock { $0.append(source) }
            return readings[source]
        }
        #expect(walked.decision == decision)
        if let used = row.used { #expect(asked.withLock { $0 }.last == used) }
        for language in Language.allCases {
            let fallback = decision.fallbackText(language)
            #expect((fallback != nil) == decision.fallback)
            if let fallback, let used = row.used {
                #expect(fallback.contains(row.chosen.displayName(language)) && fallback.contains(used.displayName(language)), "\(fallback)")
            }
            let inputs = PremiumInputs(global: [:], fx: decision.quote, now: Self.now, decision: decision)
            let label = inputs.sourceLabel(language, fxSource: row.chosen)
            if let fallback { #expect(label.contains(fallback), "every face's label names the stand-in: \(label)") }
            if row.used == nil {
                let reason = decision.unavailableReason(language) ?? ""
                #expect(reason.contains(row.chosen.displayName(language)) && reason.contains("HTTP 503"), "\(reason)")
            } else {
                #expect(decision.unavailableReason(language) == nil)
            }
        }
    }

    @Test func aRateFromTheFutureOrNotPositiveIsNoRate() {
        let plan = FXPlan(chosen: .dunamu, eximbankKey: false)
        for quote in [
            FXQuote(krwPerUSD: 1_394, at: Self.now + 3_600_000, source: .dunamu), FXQuote(krwPerUSD: 0, at: Self.now, source: .dunamu),
            FXQuote(krwPerUSD: .nan, at: Self.now, source: .dunamu),
        ] {
            #expect(plan.decide([.dunamu: .rate(quote)], now: Self.now).quote == nil, "\(quote)")
        }
    }

    @Test func theOfficialRateIsNeverAMarketsUSDT() {
        for source in FXSource.allCases {
            for key in [true, false] {
                #expect(!FXPlan(chosen: source, eximbankKey: key).officialOrder.contains { $0.basis == .usdt })
            }
        }
        #expect(FXPlan(chosen: .eximbank, eximbankKey: true).officialOrder == [.eximbank, .dunamu])
        #expect(FXPlan(chosen: .dunamu, eximbankKey: false).order == [.dunamu, .upbitUSDT])
    }

    @Test(arguments: [
        (Int64(5_000), "5초 전", "5s ago"), (180_000, "3분 전", "3 min ago"), (7_200_000, "2시간 전", "2 h ago"), (259_200_000, "3일 전", "3 d ago"),
    ])
    func agesInTheLargestWholeUnit(_ ms: Int64, _ ko: String, _ en: String) {
        #expect(AgeText.short(ms, .ko) == ko)
        #expect(AgeText.short(ms, .en) == en)
    }
}
