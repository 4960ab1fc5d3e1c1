import Foundation
import SiseCore
import Testing

/// The indicators against reference values computed independently (a plain Python
/// implementation of the stated definitions, run once by hand; the figures are pasted here) and
/// hand-worked small cases.
@Suite struct IndicatorTests {
    static let closes: [Double] = [10, 11, 12, 11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20, 19, 21, 22, 21, 23]

    static func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    @Test func movingAverages() {
        let sma = Indicators.sma(Self.closes, period: 3)
        #expect(sma[0] == nil && sma[1] == nil)
        #expect(Self.close(sma[2], 11) && Self.close(sma[3], 11.333333333333334) && Self.close(sma[5], 12.666666666666666))
        let ema = Indicators.ema(Self.closes, period: 3)
        #expect(ema[1] == nil && Self.close(ema[2], 11) && Self.close(ema[3], 11) && Self.close(ema[4], 12) && Self.close(ema[19], 22))
        #expect(Indicators.ema([1, 2], period: 3).allSatisfy { $0 == nil }, "too few closes: nothing, never a guess")
    }

    @Test func bollingerUsesThePopulationDeviation() throws {
        let bands = Indicators.bollinger(Self.closes, period: 5, width: 2)
        #expect(bands[3] == nil)
        let first = try #require(bands[4])
        #expect(Self.close(first.middle, 11.4) && Self.close(first.upper, 13.439607805437113) && Self.close(first.lower, 9.360392194562888))
        let last = try #require(bands[19])
        #expect(Self.close(last.upper, 23.85329983228432) && Self.close(last.lower, 18.546700167715677))
    }

    @Test func rsiWithWildersSmoothing() {
        let rsi = Indicators.rsi(Self.closes, period: 5)
        #expect(rsi[4] == nil)
        #expect(Self.close(rsi[5], 83.33333333333333) && Self.close(rsi[6], 68.9655172413793) && Self.close(rsi[7], 78.3132530120482))
        #expect(Self.close(rsi[19], 76.8461593795507))
        #expect(Indicators.rsi([1, 2, 3, 4], period: 3)[3] == 100, "no losses")
        #expect(Indicators.rsi([5, 5, 5, 5], period: 3)[3] == 50, "no change")
    }

    @Test func macdAndItsSignal() throws {
        let macd = Indicators.macd(Self.closes, fast: 3, slow: 6, signal: 4)
        #expect(macd[7] == nil, "the signal needs four MACD values")
        let first = try #require(macd[8])
        #expect(Self.close(first.signal, 1.0459183673469394))
        let last = try #require(macd[19])
        #expect(
            Self.close(last.macd, 1.0184449463634664) && Self.close(last.signal, 0.98482617593316)
                && Self.close(last.histogram, 0.033618770430306366)
        )
    }
}
