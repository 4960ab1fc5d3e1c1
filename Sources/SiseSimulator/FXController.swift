import Foundation
import Hummingbird
import Synchronization

/// The official USD/KRW sources, at the simulation's dollar rate:
///
/// - `GET /dunamu/v1/forex/recent?codes=FRX.KRWUSD` — Dunamu's bank rate (an array of one).
/// - `GET /koreaexim/site/program/financial/exchangeJSON?authkey=&searchdate=yyyyMMdd&data=AP01` —
///   Korea Eximbank's daily reference rates: strings with commas, `JPY(100)`, a `KRW` row; `[]` on
///   weekends, for days to come and before 11:00 KST; `result` 2 for a bad `data`, 3 for no key.
/// - `GET|POST /_sim/fx` — counters and switches (`dunamuDown`, `eximDown`: answer 503).
struct FXController: Sendable {
    let exchange: SimExchange
    let fx: SimFX

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/dunamu/v1/forex/recent") { request, _ in
            guard fx.admit(.dunamu) else { return SimResponses.error(status: 503, message: "forex unavailable") }
            guard request.uri.queryParameters["codes"] == "FRX.KRWUSD" else { return SimResponses.json("[]") }
            let t = exchange.now
            let rate = Self.rate(at: t).rounded(.toNearestOrAwayFromZero)
            return SimResponses.json(
                #"[{"code":"FRX.KRWUSD","currencyCode":"USD","basePrice":\#(rate),"currencyUnit":1,"provider":"하나은행","timestamp":\#(Int64(t * 1_000))}]"#
            )
        }
        router.get("/koreaexim/site/program/financial/exchangeJSON") { request, _ in
            guard fx.admit(.exim) else { return SimResponses.error(status: 503, message: "exim unavailable") }
            let query = request.uri.queryParameters
            guard let key = query["authkey"], !key.isEmpty else { return SimResponses.json(#"[{"result":3,"cur_unit":null,"deal_bas_r":null}]"#) }
            guard query["data"] == "AP01" else { return SimResponses.json(#"[{"result":2,"cur_unit":null,"deal_bas_r":null}]"#) }
            return SimResponses.json(Self.eximDay(query["searchdate"].map(String.init), now: exchange.now))
        }
        router.get("/_sim/fx") { _, _ in SimResponses.json(fx.json) }
        router.post("/_sim/fx") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let patch = try? JSONDecoder().decode(SimFX.Patch.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_switches", message: "a JSON object of FX switches")
            }
            fx.update(patch)
            return SimResponses.json(fx.json)
        }
    }

    /// The simulation's dollar: CoinGecko's rate, moving ±4 won over hours.
    static func rate(at t: Double) -> Double { SimCoinGecko.krwPerUSD + 4 * sin(t / 3_600) }

    /// One day's Eximbank reply: the rate at 11:00 KST that day, posted on weekdays from then on.
    static func eximDay(_ searchdate: String?, now: Double) -> String {
        let kst = 9.0 * 3_600
        let today = ((now + kst) / 86_400).rounded(.down)
        var day = today
        if let text = searchdate {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
            guard text.count == 8, let number = Int(text),
                let date = calendar.date(from: DateComponents(year: number / 10_000, month: number / 100 % 100, day: number % 100))
            else { return "[]" }
            day = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        }
        let posted = day * 86_400 - kst + 11 * 3_600
        // 1970-01-01 was a Thursday: day 2 is a Saturday.
        let weekday = (Int(day) % 7 + 7) % 7
        guard posted <= now, weekday != 2, weekday != 3 else { return "[]" }
        let usd = (rate(at: posted) * 10).rounded() / 10
        func grouped(_ value: Double) -> String {
            let text = String(format: "%.2f", value)
            guard let dot = text.firstIndex(of: ".") else { return text }
            var integer = String(text[..<dot])
            var index = integer.count - 3
            while index > 0 {
                integer.insert(",", at: integer.index(integer.startIndex, offsetBy: index))
                index -= 3
            }
            return integer + text[dot...]
        }
        func row(_ unit: String, _ name: String, _ value: Double) -> String {
            let r = grouped(value)
            return
                #"{"result":1,"cur_unit":"\#(unit)","ttb":"\#(grouped(value * 0.99))","tts":"\#(grouped(value * 1.01))","deal_bas_r":"\#(r)","bkpr":"\#(r)","yy_efee_r":"0","ten_dd_efee_r":"0","kftc_bkpr":"\#(r)","kftc_deal_bas_r":"\#(r)","cur_nm":"\#(name)"}"#
        }
        return "[" + [row("JPY(100)", "일본 옌", usd * 6.7), row("KRW", "한국 원", 1), row("USD", "미국 달러", usd)].joined(separator: ",") + "]"
    }
}

/// The FX sources' switches and counters.
final class SimFX: Sendable {
    struct Switches: Codable, Sendable {
        var dunamuDown = false
        var eximDown = false
    }

    struct Patch: Decodable {
        var dunamuDown: Bool?
        var eximDown: Bool?
    }

    private struct State {
        var switches = Switches()
        var dunamu = 0
        var exim = 0
    }

    private let state = Mutex(State())

    enum Source { case dunamu, exim }

    /// Counts a call; false while its source is switched down.
    func admit(_ source: Source) -> Bool {
        state.withLock {
            switch source {
            case .dunamu:
                $0.dunamu += 1
                return !$0.switches.dunamuDown
            case .exim:
                $0.exim += 1
                return !$0.switches.eximDown
            }
        }
    }

    func update(_ patch: Patch) {
        state.withLock {
            if let value = patch.dunamuDown { $0.switches.dunamuDown = value }
            if let value = patch.eximDown { $0.switches.eximDown = value }
        }
    }

    var json: String {
        state.withLock {
            #"{"dunamuDown":\#($0.switches.dunamuDown),"eximDown":\#($0.switches.eximDown),"dunamu":\#($0.dunamu),"exim":\#($0.exim)}"#
        }
    }
}
