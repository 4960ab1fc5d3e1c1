import Foundation

/// Transactions as CSV (RFC 4180): the header `type,exchange,market,quantity,price,fee,at,note`,
/// one transaction a line; `at` is ISO 8601 in UTC (`2026-11-23T09:00:00Z`, fractions allowed)
/// or epoch milliseconds; `exchange` and `fee` may be empty (upbit, 0). Fields with a comma,
/// quote or line break are quoted, quotes doubled.
public enum PortfolioCSV {
    public static let header = ["type", "exchange", "market", "quantity", "price", "fee", "at", "note"]

    /// A line that cannot be read, numbered from 1 (the header is line 1).
    public struct Problem: Error, Equatable, Sendable {
        public let line: Int
        /// Why, as a `UIText` key and its values (worded in the reader's language).
        public let text: UIText
        public let values: [String: String]

        public init(line: Int, _ text: UIText, _ values: [String: String] = [:]) {
            self.line = line
            self.text = text
            self.values = values
        }

        /// `line 3: quantity must be …` / `3번째 줄: 수량은 …`.
        public func message(_ language: Language) -> String {
            UIText.csvLine(language, ["line": String(line), "reason": text(language, values)])
        }

        /// In English.
        public var message: String { message(.en) }
        public var reason: String { text(.en, values) }
    }

    /// The most transactions one import may carry.
    public static let maxRows = 10_000

    /// The UTF-8 byte order mark: Excel reads a CSV as UTF-8 (Korean notes intact) only after it;
    /// LibreOffice and Google Sheets do not need it. Reading takes it off again.
    public static let byteOrderMark = "\u{FEFF}"

    /// - Parameter bom: start with `byteOrderMark` (for Excel).
    public static func encode(_ transactions: [PortfolioTransaction], bom: Bool = false) -> String {
        var out = (bom ? byteOrderMark : "") + header.joined(separator: ",") + "\r\n"
        for t in transactions.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) {
            let fields = [
                t.kind.rawValue, t.exchange.rawValue, t.market.code, PortfolioLedger.text(t.quantity, scale: 12),
                PortfolioLedger.text(t.price, scale: 8), PortfolioLedger.text(t.fee, scale: 8), isoTime(t.at), t.note,
            ]
            out += fields.map { quoted(SpreadsheetCell.escape($0)) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// The transactions of a CSV text, ids made by `newID`; the first problem stops the import,
    /// so nothing half-read is ever stored.
    public static func decode(_ text: String, newID: () -> String) throws(Problem) -> [PortfolioTransaction] {
        let records = try records(text.hasPrefix(byteOrderMark) ? String(text.dropFirst()) : text)
        guard let head = records.first else { throw Problem(line: 1, .csvEmpty, ["header": header.joined(separator: ",")]) }
        let names = head.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var column: [String: Int] = [:]
        for (index, name) in names.enumerated() where header.contains(name) { column[name] = index }
        for required in ["type", "market", "quantity", "price", "at"] where column[required] == nil {
            throw Problem(line: 1, .csvNoColumn, ["column": required, "header": header.joined(separator: ",")])
        }
        var out: [PortfolioTransaction] = []
        for record in records.dropFirst() where record.fields != [""] {
            func field(_ name: String) -> String {
                guard let index = column[name], index < record.fields.count else { return "" }
                return SpreadsheetCell.unescape(record.fields[index].trimmingCharacters(in: .whitespaces))
            }
            let line = record.line
            do {
                out.append(
                    try PortfolioInput(
                        type: field("type"),
                        exchange: field("exchange"),
                        market: field("market"),
                        quantity: field("quantity"),
                        price: field("price"),
                        fee: field("fee"),
                        at: field("at"),
                        note: column["note"].flatMap { $0 < record.fields.count ? SpreadsheetCell.unescape(record.fields[$0]) : nil } ?? ""
                    )
                    .transaction(id: newID())
                )
            } catch {
                throw Problem(line: line, error.text, error.values)
            }
        }
        return out
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// In KST (`2026-12-01T09:00:00+09:00`): the time a Korean user reads, the instant kept exact.
    static func isoTime(_ ms: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.formatOptions = ms % 1_000 == 0 ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1_000))
    }

    struct Record {
        var line: Int
        var fields: [String]
    }

    /// The longest field a line may hold, in UTF-8 bytes: far above any real one (a note is at
    /// most `PortfolioInput.maxNote` characters), and the reader stops there instead of carrying
    /// a hostile megabyte through every check after it.
    public static let maxFieldBytes = 8_192

    /// Splits RFC 4180 text into records (quoted fields may hold commas and line breaks). Refuses
    /// a field over `maxFieldBytes` and more lines than `maxRows` as it reads them.
    static func records(_ text: String) throws(Problem) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        let body = text.hasPrefix(byteOrderMark) ? text.dropFirst() : Substring(text)
        var index = body.startIndex
        var atEnd = false
        func take(_ c: Character) throws(Problem) {
            field.append(c)
            guard field.utf8.count <= maxFieldBytes else { throw Problem(line: line, .csvFieldTooLong, ["max": String(maxFieldBytes)]) }
        }
        while !atEnd {
            // The text, then one line break of the reader's own (the last line may lack one).
            let c: Character
            if index < body.endIndex {
                c = body[index]
                index = body.index(after: index)
            } else {
                c = "\n"
                atEnd = true
            }
            if quoted {
                if c == "\"" {
                    if index < body.endIndex, body[index] == "\"" {
                        try take("\"")
                        index = body.index(after: index)
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    try take(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field)
                field = ""
                afterQuote = false
                if !(fields == [""] && atEnd) {
                    // The header and `maxRows` lines; blank lines count, as they always have.
                    guard records.count <= maxRows else { throw Problem(line: maxRows + 2, .csvTooManyRows, ["max": String(maxRows)]) }
                    records.append(Record(line: recordLine, fields: fields))
                }
                fields = []
                line += 1
                recordLine = line
            default:
                guard !afterQuote else { throw Problem(line: line, .csvTextAfterQuote) }
                try take(c)
            }
        }
        if quoted { throw Problem(line: recordLine, .csvQuoteOpen) }
        return records
    }
}

/// A transaction as people and scripts send it (every field text), checked in one place for
/// the API, the CSV import and the CLI.
public struct PortfolioInput: Decodable, Sendable {
    public var type: String
    public var exchange: String?
    public var market: String
    public var quantity: String
    public var price: String
    public var fee: String?
    /// Epoch ms, or ISO 8601 text.
    public var at: String?
    public var note: String?

    public init(
        type: String,
        exchange: String? = nil,
        market: String,
        quantity: String,
        price: String,
        fee: String? = nil,
        at: String? = nil,
        note: String? = nil
    ) {
        self.type = type
        self.exchange = exchange
        self.market = market
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.at = at
        self.note = note
    }

    enum CodingKeys: String, CodingKey { case type, exchange, market, quantity, price, fee, at, note }

    /// Numbers are accepted as JSON numbers too (`"at": 1763888400000`, `"quantity": 0.5`),
    /// read through their text so no binary rounding enters; words (type, exchange, market, note)
    /// are JSON strings (or null where they may be absent).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            guard c.contains(key), !(try c.decodeNil(forKey: key)) else { return nil }
            if let string = try? c.decodeIfPresent(String.self, forKey: key) { return string }
            if let whole = try? c.decodeIfPresent(Int64.self, forKey: key) { return String(whole) }
            if let number = try? c.decodeIfPresent(Decimal.self, forKey: key) { return "\(number)" }
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(key.stringValue) must be text or a number")
        }
        // Words are text only (a number is no type, exchange, market or note).
        func words(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        guard c.contains(.type), c.contains(.market), c.contains(.quantity), c.contains(.price) else {
            throw Failure(.txMissingFields)
        }
        type = try words(.type) ?? ""
        exchange = try words(.exchange)
        market = try words(.market) ?? ""
        quantity = try text(.quantity) ?? ""
        price = try text(.price) ?? ""
        fee = try text(.fee)
        at = try text(.at)
        note = try words(.note)
    }

    /// Why an input is refused: a `UIText` key and its values, worded in the reader's language.
    public struct Failure: Error, Equatable, Sendable {
        public let text: UIText
        public let values: [String: String]
        public init(_ text: UIText, _ values: [String: String] = [:]) {
            self.text = text
            self.values = values
        }

        public func message(_ language: Language) -> String { text(language, values) }
        /// In English (scripts' logs, the CSV importer's line reasons).
        public var message: String { message(.en) }
        /// The input field the refusal is about (`price`, `market`…), so a form can mark it; nil
        /// when it is about the whole input.
        public var field: String? { Self.fields[text] }

        static let fields: [UIText: String] = [
            .inputBadExchange: "exchange", .inputBadMarket: "market", .txBadMarket: "market", .alertPremiumNeedsKRW: "market",
            .txBadType: "type", .alertBadType: "type", .txBadQuantity: "quantity", .txBadPrice: "price", .alertBadPrice: "price",
            .txBadFee: "fee", .txBadTime: "at", .txNoteTooLong: "note", .txNoteControl: "note", .alertBadMovePercent: "percent",
            .alertBadPremiumPercent: "percent",
            .alertBadWindow: "windowMinutes", .alertBadCooldown: "cooldownSeconds", .alertBadVenue: "venue", .alertTetherHasNoVenue: "venue",
            .alertBadHold: "holdMinutes", .alertBadFactor: "factor", .alertBadSpikeWindow: "windowMinutes", .alertBadIndicator: "indicator",
            .alertBadInterval: "interval", .alertBadAverageOrder: "fast", .alertBadStrength: "percent", .alertBadTarget: "market",
            .alertTargetEmpty: "market", .alertTooManyPairs: "market",
            .alertBadPortfolioTarget: "market", .alertNotHeld: "market", .alertBadPnlPercent: "percent", .alertBadAmount: "amount",
            .alertBadQuiet: "quietStart", .alertBadTimeZone: "timeZone", .alertBadDailyCap: "dailyCap",
            .txMissingFields: nil,
        ].compactMapValues { $0 }
    }

    public static let maxNote = 200

    /// The checked transaction; `now` is its time when `at` is absent.
    public func transaction(id: String, now: Int64 = WallClock.system.now) throws(Failure) -> PortfolioTransaction {
        // A field too long to be real is refused before it is trimmed, cased or parsed: each of
        // those reads it whole.
        guard let typeText = InputBounds.short(type), let kind = TransactionKind(rawValue: typeText.trimmingCharacters(in: .whitespaces).lowercased())
        else { throw Failure(.txBadType) }
        guard let exchangeText = InputBounds.short(exchange ?? "")?.trimmingCharacters(in: .whitespaces),
            let venue = exchangeText.isEmpty ? Exchange.default : Exchange(name: exchangeText)
        else { throw Failure(.inputBadExchange, ["names": Exchange.names]) }
        guard let code = InputBounds.short(market)?.trimmingCharacters(in: .whitespaces).uppercased(), let marketID = MarketID(code),
            marketID.quote == "KRW"
        else { throw Failure(.txBadMarket) }
        guard let q = InputBounds.decimal(quantity, max: InputBounds.maxQuantity) else { throw Failure(.txBadQuantity) }
        // A deposit may cost nothing (an airdrop) and a withdrawal's price is not used; a trade has a price.
        let trade = kind == .buy || kind == .sell
        guard let p = InputBounds.decimal(price, max: InputBounds.maxAmount, zeroAllowed: !trade) else { throw Failure(.txBadPrice) }
        guard let feeText = InputBounds.short(fee ?? "")?.trimmingCharacters(in: .whitespaces),
            let f = feeText.isEmpty ? 0 : InputBounds.decimal(feeText, max: InputBounds.maxAmount, zeroAllowed: true)
        else { throw Failure(.txBadFee) }
        guard let atText = InputBounds.short(at ?? "")?.trimmingCharacters(in: .whitespaces) else { throw Failure(.txBadTime) }
        let time: Int64
        if !atText.isEmpty {
            guard let parsed = Self.time(atText) else { throw Failure(.txBadTime) }
            time = parsed
        } else {
            time = now
        }
        let text = note ?? ""
        guard text.count <= Self.maxNote else { throw Failure(.txNoteTooLong, ["max": String(Self.maxNote)]) }
        if let control = ControlCharacters.first(in: text, lineBreaks: true) {
            throw Failure(.txNoteControl, ["character": ControlCharacters.name(control)])
        }
        return PortfolioTransaction(id: id, kind: kind, exchange: venue, market: marketID, quantity: q, price: p, fee: f, at: time, note: text)
    }

    /// Epoch ms (1970…2100) or ISO 8601 (with or without fractional seconds).
    static func time(_ text: String) -> Int64? {
        if text.allSatisfy(\.isASCII), let ms = Int64(text) { return (0...4_102_444_800_000).contains(ms) ? ms : nil }
        return ExactTime.milliseconds(iso: text)
    }
}
