import Foundation
@testable import SiseFeeds
import SiseCore
import SiseSimulator
import SiseTestSupport
import Testing

/// The byte-level ticker decoder must agree with the full decoder on every real frame.
@Suite struct TickerFrameDecoderTests {
    static let tickerFixtures = ["upbit-ws-ticker-snapshot.json", "upbit-ws-ticker-realtime-even-0E-8.json",
                                 "upbit-ws-ticker-2021-legacy-fields.json", "upbit-ws-ticker-2023-krw-eth.json"]

    func fast(_ data: Data) -> Ticker? {
        data.withUnsafeBytes { UpbitTickerFrameDecoder.decode($0) }
    }

    @Test(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)), arguments: tickerFixtures)
    func agreesWithTheFullDecoderOnRealFrames(_ name: String) throws {
        let data = try RealFixtures.data(name)
        guard case .ticker(let full, _) = try UpbitStreamDecoder.decode(data) else { Issue.record("not a ticker"); return }
        #expect(fast(data) == full)
    }

    @Test(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
    func leavesEveryOtherRealFrameToTheFullDecoder() throws {
        for name in RealFixtures.names(prefix: "upbit-ws-") where !Self.tickerFixtures.contains(name) {
            #expect(fast(try RealFixtures.data(name)) == nil, "\(name)")
        }
    }

    @Test(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
    func simpleKeysDecodeToTheSameTicker() throws {
        let data = try RealFixtures.data("upbit-ws-ticker-snapshot.json")
        var text = String(decoding: data, as: UTF8.self)
        for (long, short) in [("\"type\"", "\"ty\""), ("\"code\"", "\"cd\""), ("\"trade_price\"", "\"tp\""),
                              ("\"signed_change_rate\"", "\"scr\""), ("\"acc_trade_price_24h\"", "\"atp24h\""),
                              ("\"timestamp\"", "\"tms\"")] {
            text = text.replacingOccurrences(of: long, with: short)
        }
        #expect(fast(Data(text.utf8)) == fast(data))
    }

    @Test(arguments: [
        ("0", 0.0), ("102417000.00000000", 102_417_000), ("5.485e-05", 5.485e-05), ("1.16539E8", 116_539_000),
        ("0E-8", 0), ("-2302000.00000000", -2_302_000), ("0.0000063211", 0.0000063211),
        ("660440684062.676560000", 660_440_684_062.67656), ("331187169240.21526", 331_187_169_240.21526),
        ("1773240058973", 1_773_240_058_973), ("7.9276E-4", 7.9276E-4), ("0.000482", 0.000482),
        ("12345678901234567890123", 1.2345678901234568e22), ("1e400", .infinity),
    ])
    func numbersAreExact(_ text: String, _ expected: Double) {
        let bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeBufferPointer { FastNumber.parse($0.baseAddress!, 0, $0.count) }
        #expect(parsed?.0 == expected)
        #expect(parsed?.1 == bytes.count)
    }

    @Test(arguments: ["", "{", "[]", "{\"type\":\"ticker\"}", "{\"type\":\"ticker\",\"code\":\"krw-btc\",\"trade_price\":1}",
                      "{\"type\":\"ticker\",\"code\":\"KRW-BTC\",\"trade_price\":}", "\u{1}not-json{{",
                      "{\"type\":\"trade\",\"code\":\"KRW-BTC\",\"trade_price\":1}"])
    func rejectsWhatIsNotAWellFormedTicker(_ text: String) {
        #expect(fast(Data(text.utf8)) == nil)
    }

    @Test func escapedStringsAreSkippedCorrectly() {
        let text = #"{"type":"ticker","note":"a \"quoted\" \\ value","code":"KRW-BTC","trade_price":5.0,"change":"RISE","signed_change_rate":0.01,"signed_change_price":1}"#
        let ticker = fast(Data(text.utf8))
        #expect(ticker?.market == MarketID("KRW-BTC"))
        #expect(ticker?.price == 5)
        #expect(ticker?.change == .rise)
    }
}

/// The synthetic frames the benchmark uses decode the same both ways, in both formats.
@Suite struct SyntheticFrameTests {
    @Test(arguments: [SimulatorFrames.Format.default, .simple])
    func fastAndFullDecodersAgree(_ format: SimulatorFrames.Format) throws {
        for frame in SimulatorFrames.tickers(count: 300, format: format) {
            let data = Data(frame.utf8)
            guard case .ticker(let full, let stream) = try UpbitStreamDecoder.decode(data) else {
                Issue.record("not a ticker: \(frame.prefix(80))"); return
            }
            #expect(stream == .realtime)
            #expect(data.withUnsafeBytes { UpbitTickerFrameDecoder.decode($0) } == full)
        }
    }
}

/// Outside numbers never reach a failing conversion: huge, infinite or negative times are
/// dropped, never trapped on.
@Suite struct HostileNumberTests {
    @Test(arguments: ["1e20", "1e308", "-5", "99999999999999999999999"])
    func hostileTimestampsInAStreamFrameDoNotTrap(_ value: String) {
        let frame = #"{"type":"ticker","code":"KRW-BTC","trade_price":1000,"change":"RISE","signed_change_price":1,"signed_change_rate":0.001,"timestamp":"# + value + #","trade_timestamp":"# + value + "}"
        var bytes = Array(frame.utf8)
        _ = bytes.withUnsafeMutableBytes { UpbitTickerFrameDecoder.decode(UnsafeRawBufferPointer($0)) }
    }

    @Test func exactTimeRefusesWhatIsNotATime() {
        #expect(ExactTime.milliseconds(.infinity) == nil)
        #expect(ExactTime.milliseconds(.nan) == nil)
        #expect(ExactTime.milliseconds(1e20) == nil)
        #expect(ExactTime.milliseconds(-1) == nil)
        #expect(ExactTime.milliseconds(1_758_875_205_276) == 1_758_875_205_276)
    }

    @Test func retryAfterIsBoundedAndNeverTraps() {
        #expect(RetryAfter.parse("inf") == nil)
        #expect(RetryAfter.parse("nan") == nil)
        #expect(RetryAfter.parse("1e20") == .seconds(86_400))
        #expect(RetryAfter.parse("-3") == nil)
        #expect(RetryAfter.parse("2.5") == .milliseconds(2_500))
        #expect(RetryAfter.parse(String(repeating: "9", count: 400)) == nil)
    }
}

/// The byte decoder's key matcher and the one field table agree: every field's DEFAULT and
/// SIMPLE key finds that field, and nothing else does.
@Suite struct TickerFieldTableTests {
    @Test func everyKeyOfTheTableIsMatchedToItsField() {
        for field in UpbitTickerField.allCases {
            for key in [field.keys.full, field.keys.simple] {
                let bytes = Array(key.utf8)
                let found = bytes.withUnsafeBufferPointer { UpbitTickerFrameDecoder.field($0.baseAddress!, 0, bytes.count) }
                #expect(found == field, "\(key)")
            }
        }
        for stranger in ["tradeprice", "trade_pricex", "xx", "timestamps"] {
            let bytes = Array(stranger.utf8)
            #expect(bytes.withUnsafeBufferPointer { UpbitTickerFrameDecoder.field($0.baseAddress!, 0, bytes.count) } == nil, "\(stranger)")
        }
    }
}
