import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

/// The query's lists and `lang` read as `/openapi.yaml`'s patterns write them: an empty item
/// (`BTC,,ETH`, a trailing comma) is refused rather than skipped, and an API call's `lang` is
/// `ko` or `en` (a 3,000-character one was answered in Korean).
@Suite struct QueryListTests {
    @Test func listsWithAnEmptyItemAndUnknownLanguagesAreRefused() async throws {
        try await ServerHarness.run { client in
            let long = String(repeating: "k", count: 3_000)
            let refused = [
                ("/api/premium?symbols=BTC,,ETH", "symbols"),
                ("/api/premium?symbols=BTC,", "symbols"),
                ("/api/premium/matrix?symbols=,BTC", "symbols"),
                ("/api/premium/matrix?venue=binance,,okx", "venue"),
                ("/api/premium/matrix?exchange=upbit,", "exchange"),
                ("/api/compare?symbols=BTC,,ETH", "symbols"),
                ("/api/compare?symbols=BTC,%20ETH", "symbols"),
                ("/api/events?kind=listing,,flag", "kind"),
                ("/api/events?kind=listing,%20flag", "kind"),
                ("/api/wallets?exchange=upbit,,korbit", "exchange"),
                ("/api/markets?lang=\(long)", "lang"),
                ("/api/markets?lang=fr", "lang"),
                ("/api/notices?lang=", "lang"),
                // A parameter given empty is refused, not read as left out (a search may be empty).
                ("/api/trades/KRW-BTC?exchange=", "exchange"),
                ("/api/wallets?symbol=", "symbol"),
                ("/api/ranking?order=&sort=", "sort"),
                ("/api/markets?favorites=", "favorites"),
                ("/api/me?login=AAA", "login"),
            ]
            for (uri, parameter) in refused {
                let response = try await client.execute(uri: uri, method: .get)
                let error = (json(response) as? [String: Any])?["error"] as? [String: Any]
                #expect(response.status == .badRequest, "\(uri.prefix(80)) → \(response.status.code)")
                #expect(error?["code"] as? String == "bad_parameter", "\(uri.prefix(80))")
                let message = error?["message"] as? String ?? ""
                #expect(message.count < 200 && !message.contains(long), "\(uri.prefix(80)): \(message.prefix(200))")
                if parameter == "lang" { #expect(message.contains("ko, en"), "\(uri.prefix(80)): \(message)") }
            }
            // The same lists written whole are read.
            for uri in [
                "/api/premium/matrix?symbols=BTC,ETH&venue=binance,okx&exchange=upbit,korbit", "/api/events?kind=listing,flag",
                "/api/wallets?exchange=upbit,korbit", "/api/notices?lang=en", "/api/compare?symbols=BTC,ETH", "/api/markets?q=",
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status != .badRequest, "\(uri) → \(response.status.code) \(String(buffer: response.body).prefix(200))")
            }
        }
    }
}
