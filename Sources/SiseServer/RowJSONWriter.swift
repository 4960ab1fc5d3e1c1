import SiseCore

/// A `/ws` board row written straight into a string: the same object `JSONEncoder` makes of
/// `BoardSocketMessage.Row` (keys sorted, numbers as Swift spells them, `null` premium), with
/// strings quoted by `JSONString` (which also escapes `<`, `>` and `&`). Rows are encoded on
/// every change for every language shown: through `JSONEncoder` that was the largest share of an
/// idle server's time with one page open. `RowJSONWriterTests` holds it to the encoder's output.
enum RowJSONWriter {
    /// nil when a figure is not finite (`JSONEncoder` refuses those; the caller falls back to it).
    static func write(_ row: MarketRowJSON, caution: Bool, ts: Int64) -> String? {
        guard row.price.isFinite, row.changePrice.isFinite, row.changeRate.isFinite, row.tradeValue24h.isFinite,
            row.premium?.isFinite ?? true
        else { return nil }
        var out = ""
        out.reserveCapacity(420 + row.koreanName.utf8.count + row.englishName.utf8.count)
        out += "{\"caution\":"
        out += caution ? "true" : "false"
        out += ",\"cautionLevel\":"
        if let level = row.cautionLevel { out += "\"" + level.rawValue + "\"" } else { out += "null" }
        out += ",\"cautionReasons\":["
        out += row.cautionReasons.map(JSONString.quoted).joined(separator: ",")
        out += "],\"change\":\""
        out += row.change.rawValue
        out += "\",\"changePrice\":"
        number(row.changePrice, into: &out)
        out += ",\"changeRate\":"
        number(row.changeRate, into: &out)
        let display = row.display
        out += ",\"display\":{\"changePrice\":"
        out += JSONString.quoted(display.changePrice)
        out += ",\"changeRate\":"
        out += JSONString.quoted(display.changeRate)
        out += ",\"premium\":"
        out += JSONString.quoted(display.premium)
        out += ",\"premiumTone\":"
        out += JSONString.quoted(display.premiumTone)
        out += ",\"price\":"
        out += JSONString.quoted(display.price)
        out += ",\"tradeValue\":"
        out += JSONString.quoted(display.tradeValue)
        out += ",\"tradeValueShort\":"
        out += JSONString.quoted(display.tradeValueShort)
        out += "},\"englishName\":"
        out += JSONString.quoted(row.englishName)
        out += ",\"exchange\":\""
        out += row.exchange.rawValue
        out += "\",\"koreanName\":"
        out += JSONString.quoted(row.koreanName)
        out += ",\"market\":"
        out += JSONString.quoted(row.market)
        out += ",\"premium\":"
        if let premium = row.premium { number(premium, into: &out) } else { out += "null" }
        out += ",\"price\":"
        number(row.price, into: &out)
        out += ",\"symbol\":"
        out += JSONString.quoted(row.symbol)
        out += ",\"tradeValue24h\":"
        number(row.tradeValue24h, into: &out)
        out += ",\"ts\":"
        out += String(ts)
        out += ",\"warning\":"
        out += row.warning ? "true" : "false"
        out += "}"
        return out
    }

    /// A finite number as `JSONEncoder` writes it: Swift's shortest spelling, without a
    /// trailing `.0` on whole numbers.
    private static func number(_ value: Double, into out: inout String) {
        let text = value.description
        if text.hasSuffix(".0") { out += text.dropLast(2) } else { out += text }
    }
}
