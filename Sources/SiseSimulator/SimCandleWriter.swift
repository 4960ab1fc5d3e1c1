import Foundation

/// Builds Upbit-shaped candles from the price walk: buckets newest first, OHLC sampled along
/// the same walk the tickers use, so a chart and the board never disagree.
enum SimCandleWriter {
    enum Unit: Equatable {
        case seconds
        case minutes(Int)
        case days, weeks, months, years
    }

    /// The bucket holding `t` and the start of the next one (epoch seconds).
    static func bucket(containing t: Double, unit: Unit) -> (start: Int, end: Int) {
        let s = Int(t.rounded(.down))
        switch unit {
        case .seconds: return (s, s + 1)
        case .minutes(let n):
            let len = n * 60
            let start = Int((Double(s) / Double(len)).rounded(.down)) * len
            return (start, start + len)
        case .days:
            let start = Int((Double(s) / 86_400).rounded(.down)) * 86_400
            return (start, start + 86_400)
        case .weeks:
            // 1970-01-05 was a Monday; Upbit's weeks start on Monday.
            let monday = 4 * 86_400
            let start = Int((Double(s - monday) / 604_800).rounded(.down)) * 604_800 + monday
            return (start, start + 604_800)
        case .months:
            let c = SimTime.civil(s)
            let next = c.month == 12 ? (c.year + 1, 1) : (c.year, c.month + 1)
            return (SimTime.epoch(year: c.year, month: c.month, day: 1), SimTime.epoch(year: next.0, month: next.1, day: 1))
        case .years:
            let c = SimTime.civil(s)
            return (SimTime.epoch(year: c.year, month: 1, day: 1), SimTime.epoch(year: c.year + 1, month: 1, day: 1))
        }
    }

    static func write(market: SimMarket, unit: Unit, count: Int, to: Double, now: Double) -> String {
        var json = JSONWriter(capacity: count * 400)
        json.beginArray()
        var cursor = min(to, now) - 0.001
        for _ in 0..<count {
            let (start, end) = bucket(containing: cursor, unit: unit)
            writeCandle(market: market, unit: unit, start: start, end: end, now: now, into: &json)
            cursor = Double(start) - 0.001
        }
        json.endArray()
        return json.text
    }

    /// A bucket's open, high, low, close and traded value, sampled along the walk (every
    /// venue's candles come from here).
    static func ohlc(
        market: SimMarket,
        start: Int,
        end: Int,
        now: Double
    )
        -> (open: Double, high: Double, low: Double, close: Double, value: Double, closeAt: Double)
    {
        // The close is the bucket's last trade (the market trades every `SimMarket.tradeEvery`).
        let last = market.traded(atOrBefore: Int64((min(Double(end) - 0.001, now) * 1_000).rounded(.down)))
        let closeAt = Double(last.at) / 1_000
        let open = market.price(at: Double(start))
        let close = last.price
        var high = max(open, close)
        var low = min(open, close)
        for i in 1..<8 {
            let p = market.price(at: Double(start) + (closeAt - Double(start)) * Double(i) / 8)
            high = max(high, p)
            low = min(low, p)
        }
        let span = max(1, closeAt - Double(start))
        let noise = 0.5 + Double(SimRandom.hash(UInt64(start), SimRandom.hash(market.code)) % 1_000) / 1_000
        return (open, high, low, close, market.value24h(at: closeAt) * span / 86_400 * noise, closeAt)
    }

    private static func writeCandle(
        market: SimMarket,
        unit: Unit,
        start: Int,
        end: Int,
        now: Double,
        into json: inout JSONWriter
    ) {
        let (open, high, low, close, value, closeAt) = ohlc(market: market, start: start, end: end, now: now)
        let lastTick = Int64((closeAt * 1_000).rounded())
        json.beginObject()
        json.field("market", market.code)
        json.field("candle_date_time_utc", SimTime.isoLocal(start))
        json.field("candle_date_time_kst", SimTime.isoLocal(start + SimTime.kstOffset))
        json.field("opening_price", open)
        json.field("high_price", high)
        json.field("low_price", low)
        json.field("trade_price", close)
        json.field("timestamp", int: max(Int64(start) * 1_000, lastTick))
        json.field("candle_acc_trade_price", value.rounded(toPlaces: 8))
        json.field("candle_acc_trade_volume", (value / max(close, 1e-12)).rounded(toPlaces: 8))
        switch unit {
        case .minutes(let n):
            json.field("unit", int: Int64(n))
        case .days:
            let prev = market.price(at: Double(start) - 0.001)
            json.field("prev_closing_price", prev)
            json.field("change_price", close - prev)
            json.field("change_rate", prev == 0 ? 0 : (close - prev) / prev)
        case .weeks, .months, .years:
            json.field("first_day_of_period", SimTime.dashedDate(start))
        case .seconds:
            break
        }
        json.endObject()
    }
}
