import Foundation
import SiseCore

/// A hand-written, allocation-light decoder for the one frame that arrives 150 times a second:
/// the ticker, in DEFAULT or SIMPLE keys. It reads only the fields Sise shows and skips the
/// rest, eight bytes at a time. Anything it does not recognise returns nil so the full decoder can
/// look (status and error frames, other types, malformed input).
public enum UpbitTickerFrameDecoder {
    /// The fields the decoder keeps: the one table's (`UpbitTickerField`).
    typealias Field = UpbitTickerField

    /// What one pass over a frame found; numbers live in a stack buffer (no heap per frame).
    private struct Values {
        let numbers: UnsafeMutablePointer<Double>
        var code: Range<Int>?
        var change: Range<Int>?
        var isTicker = false
        var high52Date: Range<Int>?
        var low52Date: Range<Int>?
    }

    /// The ticker in `bytes`, or nil when it is not a well-formed ticker frame.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> Ticker? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        return decode(base, bytes.count)
    }

    static func decode(_ p: UnsafePointer<UInt8>, _ end: Int) -> Ticker? {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 20) { buffer in
            buffer.initialize(repeating: .nan)
            return decode(p, end, Values(numbers: buffer.baseAddress!))
        }
    }

    private static func decode(_ p: UnsafePointer<UInt8>, _ end: Int, _ values: Values) -> Ticker? {
        var v = values
        var i = skipSpace(p, 0, end)
        guard i < end, p[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            i = skipSpace(p, i, end)
            guard i < end else { return nil }
            if p[i] == UInt8(ascii: "}") { break }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard p[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i + 1
            guard let keyEnd = find(p, UInt8(ascii: "\""), keyStart, end) else { return nil }
            i = skipSpace(p, keyEnd + 1, end)
            guard i < end, p[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(p, i + 1, end)
            guard i < end else { return nil }
            let field = Self.field(p, keyStart, keyEnd - keyStart)
            let c = p[i]
            if c == UInt8(ascii: "\"") {
                guard let close = stringEnd(p, i + 1, end) else { return nil }
                let range = (i + 1)..<close
                switch field {
                case .type?: v.isTicker = equals(p, range, "ticker")
                case .code?: v.code = range
                case .change?: v.change = range
                case .high52Date?: v.high52Date = range
                case .low52Date?: v.low52Date = range
                default: break
                }
                i = close + 1
            } else if c == UInt8(ascii: "-") || (c &- 48) < 10 {
                if let field {
                    guard let (value, next) = FastNumber.parse(p, i, end) else { return nil }
                    v.numbers[field.rawValue] = value
                    i = next
                } else {
                    // A number Sise does not show: read over it without converting it.
                    guard let next = FastNumber.skip(p, i, end) else { return nil }
                    i = next
                }
            } else if c == UInt8(ascii: "t") || c == UInt8(ascii: "f") || c == UInt8(ascii: "n") {
                while i < end, p[i] >= UInt8(ascii: "a"), p[i] <= UInt8(ascii: "z") { i += 1 }
            } else {
                return nil  // nested values are not part of a ticker frame
            }
        }
        return makeTicker(p, v)
    }

    private static func makeTicker(_ p: UnsafePointer<UInt8>, _ v: Values) -> Ticker? {
        guard v.isTicker, let codeRange = v.code, let market = marketID(p, codeRange) else { return nil }
        let n = v.numbers
        let price = n[Field.price.rawValue]
        guard !price.isNaN else { return nil }
        func number(_ f: Field) -> Double? { n[f.rawValue].isNaN ? nil : n[f.rawValue] }
        let direction: PriceChange? = v.change.flatMap { range in
            equals(p, range, "RISE") ? .rise : equals(p, range, "FALL") ? .fall : equals(p, range, "EVEN") ? .even : nil
        }
        var values = UpbitTickerValues(market: market, price: price)
        values.change = direction
        values.signedChangePrice = number(.signedChangePrice)
        values.signedChangeRate = number(.signedChangeRate)
        values.changePrice = number(.changePrice)
        values.changeRate = number(.changeRate)
        values.open = number(.open)
        values.high = number(.high)
        values.low = number(.low)
        values.prevClose = number(.prevClose)
        values.value24h = number(.value24h)
        values.volume24h = number(.volume24h)
        values.high52 = number(.high52)
        values.high52Date = v.high52Date.map { string(p, $0) }
        values.low52 = number(.low52)
        values.low52Date = v.low52Date.map { string(p, $0) }
        values.tradeTimestamp = number(.tradeTimestamp).flatMap(ExactTime.milliseconds)
        values.timestamp = number(.timestamp).flatMap(ExactTime.milliseconds)
        return values.ticker
    }

    // MARK: - Bytes

    @inline(__always)
    private static func skipSpace(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start
        // Every JSON space is at most 0x20; upstream sends none, so one comparison usually ends it.
        while i < end, p[i] <= 0x20, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        return i
    }

    /// The first `byte` at or after `start`. Keys and values are short: eight bytes are compared
    /// at once in a register (a call to `memchr` costs more than the search).
    @inline(__always)
    private static func find(_ p: UnsafePointer<UInt8>, _ byte: UInt8, _ start: Int, _ end: Int) -> Int? {
        var i = start
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        while i + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) ^ pattern
            // A zero byte of `word` is a match; the lowest flagged byte is always a true one.
            let flags = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if flags != 0 { return i + flags.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            if p[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// The closing quote of a string starting at `start`, stepping over escapes.
    private static func stringEnd(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while let quote = find(p, UInt8(ascii: "\""), i, end) {
            var backslashes = 0
            var k = quote - 1
            while k >= start && p[k] == UInt8(ascii: "\\") {
                backslashes += 1
                k -= 1
            }
            if backslashes % 2 == 0 { return quote }
            i = quote + 1
        }
        return nil
    }

    private static func equals(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount && memcmp(p + range.lowerBound, text.utf8Start, range.count) == 0
    }

    private static func string(_ p: UnsafePointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: p + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// `KRW-BTC` from upper-case ASCII bytes; nil for anything else (Upbit codes are upper case).
    private static func marketID(_ p: UnsafePointer<UInt8>, _ range: Range<Int>) -> MarketID? {
        var dash = -1
        for k in range {
            let b = p[k]
            if b == UInt8(ascii: "-") {
                guard dash < 0 else { return nil }
                dash = k
            } else if !((b &- 65) < 26 || (b &- 48) < 10) {
                return nil
            }
        }
        guard dash > range.lowerBound, dash < range.upperBound - 1 else { return nil }
        return MarketID(
            uncheckedQuote: string(p, range.lowerBound..<dash),
            base: string(p, (dash + 1)..<range.upperBound),
            code: string(p, range)
        )
    }
}
