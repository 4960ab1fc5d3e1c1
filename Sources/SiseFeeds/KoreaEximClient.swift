import Foundation
import SiseCore

/// Korea Eximbank's daily reference rates (매매기준율, `data=AP01`): official, posted once a
/// business day (around 11:00 KST), and only with a key. Numbers come as strings with thousands
/// commas, `JPY(100)` is per 100 units, a day without a posting answers `[]` (so the client walks
/// back a day at a time, a week at most), and errors are HTTP 200 with a `result` other than 1.
public struct KoreaEximClient: Sendable {
    public static let defaultURL = URL(string: "https://oapi.koreaexim.go.kr")!
    /// How many days back a posting is looked for (a week of holidays).
    public static let walkBackDays = 7

    public let baseURL: URL
    private let key: String
    private let transport: any HTTPTransport

    public init(baseURL: URL = KoreaEximClient.defaultURL, key: String, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
    }

    /// A day's reply: KRW per one unit of each currency (`USD`, `JPY` …), or nothing posted.
    public enum Reply: Sendable, Equatable {
        case rates([String: Double])
        case nothingPosted
    }

    struct RowDTO: Decodable {
        let result: Int?
        let cur_unit: String?
        let deal_bas_r: String?
    }

    /// Reads one day's reply. Errors: `result` 2 (bad `data`), 3 (bad key), 4 (the day's quota).
    public static func parse(_ body: Data) throws -> Reply {
        guard let rows = try? JSONDecoder().decode([RowDTO].self, from: body) else {
            throw FeedError.malformedPayload(context: "koreaexim exchangeJSON")
        }
        guard !rows.isEmpty else { return .nothingPosted }
        if rows.count == 1, let result = rows[0].result, result != 1 {
            switch result {
            case 3: throw FeedError.unauthorized(name: "koreaexim", message: "the key was refused (result 3)")
            case 4: throw FeedError.rateLimited(retryAfter: .seconds(3_600))
            default: throw FeedError.badRequest(name: "koreaexim", message: "result \(result)")
            }
        }
        var rates: [String: Double] = [:]
        for row in rows where row.result == 1 {
            guard let unit = row.cur_unit, let text = row.deal_bas_r, let (code, per) = Self.unit(unit),
                let value = Double(text.replacingOccurrences(of: ",", with: "")), value.isFinite, value > 0
            else { continue }
            rates[code] = value / per
        }
        guard !rates.isEmpty else { throw FeedError.malformedPayload(context: "koreaexim: no rate in the reply") }
        return .rates(rates)
    }

    /// `JPY(100)` → (`JPY`, 100); `USD` → (`USD`, 1).
    static func unit(_ text: String) -> (String, Double)? {
        guard let open = text.firstIndex(of: "(") else { return text.isEmpty ? nil : (text, 1) }
        let code = String(text[..<open])
        let inner = text[text.index(after: open)...].prefix { $0 != ")" }
        guard !code.isEmpty, let per = Double(inner), per > 0 else { return nil }
        return (code, per)
    }

    /// KRW per USD on the last business day up to `now` (epoch ms), and when it was posted
    /// (that day, 11:00 KST).
    public func krwPerUSD(now: Int64) async throws -> (rate: Double, at: Int64) {
        for back in 0...Self.walkBackDays {
            let day = Self.kstDay(now, daysBack: back)
            let url = try RESTURL.make(baseURL, "/site/program/financial/exchangeJSON", ["authkey": key, "searchdate": day.text, "data": "AP01"])
            let response = try await transport.get(url, headers: [("Accept", "application/json")])
            guard response.status == 200 else { throw FeedError.unexpectedStatus(status: response.status, message: "koreaexim") }
            switch try Self.parse(response.body) {
            case .nothingPosted: continue
            case .rates(let rates):
                guard let usd = rates["USD"] else { throw FeedError.malformedPayload(context: "koreaexim: no USD row") }
                return (usd, min(day.start + 11 * 3_600_000, now))
            }
        }
        throw FeedError.malformedPayload(context: "koreaexim: nothing posted in \(Self.walkBackDays) days")
    }

    /// The KST calendar day `daysBack` days before `now`: `yyyyMMdd` and its start (epoch ms).
    static func kstDay(_ now: Int64, daysBack: Int) -> (text: String, start: Int64) {
        let kst: Int64 = 9 * 3_600_000
        let day = Int64((Double(now + kst) / 86_400_000).rounded(.down)) - Int64(daysBack)
        let start = day * 86_400_000 - kst
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day * 86_400)))
        let text = String(format: "%04d%02d%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        return (text, start)
    }
}
