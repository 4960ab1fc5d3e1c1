import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseFeeds
import SiseServer
import SiseTestSupport
import Testing

@Suite struct AlertsAPITests {
    /// A webhook receiver on loopback: every POST's signature header and raw body.
    final class Inbox: @unchecked Sendable {
        // @unchecked: a test-only list behind a lock.
        private let lock = NSLock()
        private var items: [(signature: String, body: Data)] = []
        func add(_ item: (String, Data)) {
            lock.lock()
            items.append(item)
            lock.unlock()
        }
        var all: [(signature: String, body: Data)] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }
    }

    @Test func anAlertAlreadyTrueFiresOnceIntoHistoryAndASignedWebhook() async throws {
        let inbox = Inbox()
        let router = Router()
        router.post("/hook") { request, _ -> HTTPResponse.Status in
            var request = request
            let body = try await request.collectBody(upTo: 65_536)
            inbox.add((request.headers[HTTPField.Name("X-Sise-Signature")!] ?? "", Data(buffer: body)))
            return .noContent
        }
        let receiver = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await receiver.test(.live) { hookClient in
            let hookPort = try #require(hookClient.port)
            try await ServerHarness.run(allowPrivateWebhooks: true, configure: { $0.webhookRetryDelays = [.milliseconds(200)] }) { client in
                var jar = CookieJar()
                jar.take(try await client.execute(uri: "/api/alerts", method: .get))
                var headers = jar.pageHeaders
                headers[.contentType] = "application/json"
                let secret = "a-secret-of-this-test"
                let hook = try await client.execute(
                    uri: "/api/webhooks",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: #"{"url":"http://127.0.0.1:\#(hookPort)/hook","secret":"\#(secret)"}"#)
                )
                #expect(hook.status == .created)
                #expect(!String(buffer: hook.body).contains(secret), "a webhook's secret is never sent back")

                // Refusals: bad rules, unknown markets — each naming the field a form marks.
                for (bad, status, field) in [
                    (#"{"market":"KRW-BTC","type":"above","price":"abc"}"#, HTTPResponse.Status.badRequest, "price"),
                    (#"{"market":"KRW-NOPE","type":"above","price":"1"}"#, .notFound, "market"),
                    (#"{"market":"nope","type":"above","price":"1"}"#, .badRequest, "market"),
                    (#"{"market":"KRW-BTC","type":"sideways","price":"1"}"#, .badRequest, "type"),
                    (#"{"market":"KRW-BTC","type":"move","percent":"x"}"#, .badRequest, "percent"),
                    (#"{"market":"KRW-BTC","type":"above","price":"1","cooldownSeconds":-1}"#, .badRequest, "cooldownSeconds"),
                    (#"{"market":"KRW-BTC","type":"move","percent":"5","windowMinutes":100000}"#, .badRequest, "windowMinutes"),
                    (#"{"market":"KRW-BTC","type":"premiumAbove","percent":"3","venue":"kraken"}"#, .badRequest, "venue"),
                    (#"{"market":"KRW-USDT","type":"premiumAbove","percent":"3","venue":"okx"}"#, .badRequest, "venue"),
                    (#"{"market":"KRW-BTC","type":"premiumAbove","percent":"3","holdMinutes":0}"#, .badRequest, "holdMinutes"),
                    (#"{"market":"KRW-BTC","type":"volumeSpike","factor":"0.5"}"#, .badRequest, "factor"),
                    (#"{"market":"KRW-BTC","type":"volumeSpike","factor":3,"windowMinutes":61}"#, .badRequest, "windowMinutes"),
                    (#"{"market":"KRW-BTC","type":"indicator","indicator":"macd"}"#, .badRequest, "indicator"),
                    (#"{"market":"KRW-BTC","type":"strengthAbove","percent":"0"}"#, .badRequest, "percent"),
                    (#"{"market":"KRW-BTC","type":"indicator","indicator":"rsiAbove","interval":"2h"}"#, .badRequest, "interval"),
                ] {
                    let refused = try await client.execute(uri: "/api/alerts", method: .post, headers: headers, body: ByteBuffer(string: bad))
                    #expect(refused.status == status, "\(bad)")
                    let error = (json(refused) as? [String: Any])?["error"] as? [String: Any]
                    #expect(error?["field"] as? String == field, "\(bad): \(String(buffer: refused.body))")
                }
                let badHook = try await client.execute(
                    uri: "/api/webhooks",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: #"{"url":"http://127.0.0.1:\#(hookPort)/hook","secret":"short"}"#)
                )
                #expect(((json(badHook) as? [String: Any])?["error"] as? [String: Any])?["field"] as? String == "secret")
                // A line far above the price: armed, silent. A line under it: fires at once, exactly once.
                let far = try await client.execute(
                    uri: "/api/alerts",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: #"{"market":"KRW-BTC","type":"above","price":"999999999999"}"#)
                )
                #expect(far.status == .created)
                let created = try await client.execute(
                    uri: "/api/alerts",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: #"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#)
                )
                #expect(created.status == .created)
                let alertID = try #require((json(created) as? [String: Any])?["id"] as? String)
                let fired = try await waitUntil(timeout: .seconds(10)) {
                    let history =
                        json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: [.cookie: jar.header])) as? [String: Any]
                    return ((history?["history"] as? [[String: Any]])?.isEmpty == false) && !inbox.all.isEmpty
                }
                #expect(fired)
                // An absence to check, without waiting on the clock: a second line, true at once, is
                // set now. Its firing comes from a KRW-BTC tick read after the first firing, so a
                // second firing of the first line would be in the history by then.
                let next = try await client.execute(
                    uri: "/api/alerts",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: #"{"exchange":"upbit","market":"KRW-BTC","type":"below","price":"999999999999"}"#)
                )
                let nextID = try #require((json(next) as? [String: Any])?["id"] as? String)
                func history() async throws -> [[String: Any]] {
                    let body = json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: [.cookie: jar.header]))
                    return ((body as? [String: Any])?["history"] as? [[String: Any]]) ?? []
                }
                func delivered(_ id: String) -> [(signature: String, body: Data)] {
                    inbox.all.filter { (try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any])?["alertId"] as? String == id }
                }
                let nextFired = try await waitUntil(timeout: .seconds(10)) {
                    try await history().contains { $0["alertId"] as? String == nextID } && !delivered(nextID).isEmpty
                }
                #expect(nextFired)
                #expect(try await history().count { $0["alertId"] as? String == alertID } == 1, "fired once")
                let farID = try #require((json(far) as? [String: Any])?["id"] as? String)
                let list = try #require(
                    (json(try await client.execute(uri: "/api/alerts", method: .get, headers: [.cookie: jar.header]))
                        as? [String: Any])?["alerts"] as? [[String: Any]]
                )
                #expect(list.first { $0["id"] as? String == alertID }?["enabled"] as? Bool == false, "a one-shot alert is disabled")
                #expect(list.first { $0["id"] as? String == farID }?["enabled"] as? Bool == true)

                // The webhook: one POST, signed with the secret over the raw body, with the promised keys.
                #expect(delivered(alertID).count == 1)
                let delivery = try #require(delivered(alertID).first)
                let mac = HMAC<SHA256>.authenticationCode(for: delivery.body, using: SymmetricKey(data: Data(secret.utf8)))
                #expect(delivery.signature == "sha256=" + mac.map { String(format: "%02x", $0) }.joined())
                let body = try #require(try JSONSerialization.jsonObject(with: delivery.body) as? [String: Any])
                for key in ["id", "alertId", "exchange", "market", "rule", "price", "at"] { #expect(body[key] != nil, "\(key)") }
                #expect(body["owner"] == nil, "the owner's id stays on the server")

                // Disable, delete.
                #expect(
                    try await client.execute(
                        uri: "/api/alerts/\(alertID)",
                        method: .patch,
                        headers: headers,
                        body: ByteBuffer(string: #"{"enabled":false}"#)
                    ).status == .ok
                )
                #expect(try await client.execute(uri: "/api/alerts/\(alertID)", method: .delete, headers: jar.pageHeaders).status == .ok)
                #expect(try await client.execute(uri: "/api/alerts/\(alertID)", method: .delete, headers: jar.pageHeaders).status == .notFound)
            }
        }
    }

    /// A premium line on KRW-USDT is a 테더 김프 line: it fires on USDT over the official dollar.
    @Test func aPremiumLineOnUSDTWatchesTheTetherPremium() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/alerts", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            var tetherPremium: Double?
            try await expectEventually(timeout: .seconds(15), "the official rate arrives") {
                let table = json(try await client.execute(uri: "/api/premium/usdt?exchange=upbit", method: .get)) as? [String: Any]
                tetherPremium = ((table?["rows"] as? [[String: Any]])?.first?["premium"]) as? Double
                return tetherPremium != nil
            }
            let level = try #require(tetherPremium) * 100 - 0.5
            let created = try await client.execute(
                uri: "/api/alerts",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"exchange":"upbit","market":"KRW-USDT","type":"premiumAbove","percent":"\#(level)"}"#)
            )
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let id = try #require((json(created) as? [String: Any])?["id"] as? String)
            try await expectEventually(timeout: .seconds(15), "the line is crossed") {
                let history =
                    json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: [.cookie: jar.header])) as? [String: Any]
                return (history?["history"] as? [[String: Any]])?.contains { $0["alertId"] as? String == id } == true
            }
        }
    }

    /// A premium line on a matrix cell (OKX), held or not: stored with its venue and hold, worded
    /// so, changed (the hold removed with null), and fired from the OKX cell with the venue said.
    @Test func aPremiumLineOnAnOKXCell() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/alerts", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            headers[.acceptLanguage] = "en"
            let created = try await client.execute(
                uri: "/api/alerts",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"market":"KRW-ETH","type":"premiumAbove","percent":"-10","venue":"okx","holdMinutes":30}"#)
            )
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let rule = try #require(json(created) as? [String: Any])
            let id = try #require(rule["id"] as? String)
            #expect(rule["venue"] as? String == "okx" && rule["holdMinutes"] as? Int == 30)
            #expect(rule["description"] as? String == "premium at or above -10% against OKX, held 30 min")
            // Held for 30 minutes it has not fired; without the hold it fires from the OKX cell.
            let changed = try await client.execute(
                uri: "/api/alerts/\(id)",
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"holdMinutes":null}"#)
            )
            let now = try #require(json(changed) as? [String: Any])
            #expect(changed.status == .ok && now["holdMinutes"] is NSNull && now["venue"] as? String == "okx", "\(now)")
            try await expectEventually(timeout: .seconds(15), "the OKX cell is read") {
                let history =
                    json(try await client.execute(uri: "/api/alerts/history", method: .get, headers: [.cookie: jar.header])) as? [String: Any]
                return (history?["history"] as? [[String: Any]])?.contains { $0["alertId"] as? String == id && $0["venue"] as? String == "okx" }
                    == true
            }
        }
    }

    /// A volume spike is kept with its factor and window, worded so, and changed through PATCH
    /// (a factor under 1 refused under its field); so is an indicator signal with its terms.
    @Test func aVolumeSpikeAndAnIndicatorSignalAreKeptWithTheirTerms() async throws {
        try await ServerHarness.run { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/alerts", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            headers[.acceptLanguage] = "en"
            let created = try await client.execute(
                uri: "/api/alerts",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"market":"KRW-XRP","type":"volumeSpike","factor":"3"}"#)
            )
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let rule = try #require(json(created) as? [String: Any])
            let id = try #require(rule["id"] as? String)
            #expect(rule["factor"] as? String == "3" && rule["windowMinutes"] as? Int == 5 && rule["percent"] is NSNull, "\(rule)")
            #expect(rule["description"] as? String == "traded 3× its usual pace within 5 min")
            let changed = try await client.execute(
                uri: "/api/alerts/\(id)",
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"factor":"4.5","windowMinutes":15}"#)
            )
            let now = try #require(json(changed) as? [String: Any])
            #expect(changed.status == .ok && now["factor"] as? String == "4.5" && now["windowMinutes"] as? Int == 15, "\(now)")
            let refused = try await client.execute(
                uri: "/api/alerts/\(id)",
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"factor":"0"}"#)
            )
            let error = (json(refused) as? [String: Any])?["error"] as? [String: Any]
            #expect(refused.status == .badRequest && error?["field"] as? String == "factor", "\(String(buffer: refused.body))")
            // An indicator signal: kept with its terms, worded, its interval changed through PATCH.
            let signal = try await client.execute(
                uri: "/api/alerts",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: #"{"market":"KRW-ETH","type":"indicator","indicator":"maCrossUp","fast":5,"slow":20,"interval":"4h"}"#)
            )
            let kept = try #require(json(signal) as? [String: Any])
            #expect(signal.status == .created && kept["indicator"] as? String == "maCrossUp" && kept["interval"] as? String == "4h", "\(kept)")
            #expect(kept["description"] as? String == "4h MA 5 crossed above MA 20")
            let daily = try await client.execute(
                uri: "/api/alerts/\(try #require(kept["id"] as? String))",
                method: .patch,
                headers: headers,
                body: ByteBuffer(string: #"{"interval":"1d","slow":60}"#)
            )
            let now2 = try #require(json(daily) as? [String: Any])
            #expect(now2["interval"] as? String == "1d" && now2["slow"] as? Int == 60 && now2["fast"] as? Int == 5, "\(now2)")
        }
    }

    @Test func webhooksToPrivateAddressesNeedTheOperatorsConsent() throws {
        let strict = WebhookPoster()
        #expect(strict.check("http://127.0.0.1:9/hook") == .privateAddress("127.0.0.1"))
        #expect(strict.check("http://10.1.2.3/hook") == .privateAddress("10.1.2.3"))
        #expect(strict.check("http://localhost/hook") == .privateAddress("localhost"))
        #expect(strict.check("ftp://example.com/") == .badURL)
        #expect(strict.check("https://user:pw@example.com/") == .badURL)
        #expect(strict.check("https://hooks.example.com/sise") == nil)
        #expect(WebhookPoster(allowPrivate: true).check("http://127.0.0.1:9/hook") == nil)
        // Every spelling delivery would refuse is refused at creation too.
        for url in [
            "http://2130706433:9/", "http://0x7f000001:9/", "http://0177.0.0.1/", "http://127.1/", "http://localhost.:9/",
            "http://LOCALHOST/", "http://api.localhost/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:a00:1]/",
            "http://0/", "http://169.254.169.254/latest", "http://0xa9.0xfe.0xa9.0xfe/",
        ] {
            #expect(strict.check(url).map { if case .privateAddress = $0 { true } else { false } } == true, "\(url)")
        }
        for url in ["http://8.8.8.8/", "http://134744072/", "https://[2606:4700::1111]/", "https://hooks.example.com./x"] {
            #expect(strict.check(url) == nil, "\(url)")
        }
    }
}
