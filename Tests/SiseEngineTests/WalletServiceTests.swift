import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// Every exchange's wallets against the simulator, read the way `sise serve` reads them (each
/// exchange's spec in the registry says how): all four live with Upbit's key; a suspension
/// switched on in the simulator shows in the next read; without the key Upbit is "key needed"
/// and never asked; with a wrong one it fails in Upbit's words and the secret appears nowhere.
@Suite(.serialized) struct WalletServiceTests {
    @Test func everyExchangeOverTheSimulator() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            func service(_ key: ExchangeKey?) -> WalletService {
                let feeds = Dictionary(
                    uniqueKeysWithValues: ExchangeRegistry.all.map {
                        ($0.exchange, $0.wallets($0.simulated(at: simulator.baseURL), transport: transport, key: key))
                    }
                )
                return WalletService(feeds: feeds, clock: .system, logger: Logger(label: "test"))
            }
            let keyed = service(ExchangeKey(access: SimulatedUpbitKey.access, secret: SimulatedUpbitKey.secret))
            #expect(keyed.all.allSatisfy { $0.state == .waiting })
            await keyed.refresh()
            for report in keyed.all {
                #expect(report.state == .live && report.wallets.count > 100 && report.at != nil, "\(report.exchange): \(report.state)")
                #expect(report.summary(of: "BTC") == WalletSummary(deposit: .open, withdraw: .open), "\(report.exchange)")
            }
            #expect(keyed.report(.korbit).wallets(of: "USDT").map(\.network) == ["ETH", "TRX"], "USDT on two chains")
            #expect(keyed.report(.korbit).wallets(of: "BTC").first?.withdrawFee != nil, "Korbit publishes its fees")

            // A suspension of ETH deposits on Bithumb, on every ETH network: the next read says so.
            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"bithumb","currency":"ETH","deposit":false}"#)
            await keyed.refresh()
            let eth = try #require(keyed.report(.bithumb).summary(of: "ETH"))
            #expect(eth == WalletSummary(deposit: .suspended, withdraw: .open) && eth.mark(.ko) == "입금 중단")
            #expect(keyed.report(.upbit).summary(of: "ETH") == WalletSummary(deposit: .open, withdraw: .open), "one exchange's switch")
            // One of USDT's two chains shut on Korbit: partly.
            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"korbit","currency":"USDT","network":"TRX","withdraw":false}"#)
            await keyed.refresh()
            #expect(keyed.report(.korbit).summary(of: "USDT") == WalletSummary(deposit: .open, withdraw: .partial))

            // Without a key: Upbit is "key needed", and it is never asked.
            let (_, before) = try await SimAdmin.get(simulator, "/_sim/wallets")
            let keyless = service(nil)
            await keyless.refresh()
            #expect(keyless.report(.upbit).state == .keyNeeded && keyless.report(.upbit).wallets.isEmpty)
            let (_, after) = try await SimAdmin.get(simulator, "/_sim/wallets")
            func upbitCalls(_ data: Data) -> Int? {
                ((try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["calls"] as? [String: Int])?["upbit"]
            }
            #expect(upbitCalls(before) == upbitCalls(after), "a keyless Upbit is not called")

            // A wrong key: failing, in Upbit's words, and the secret is nowhere.
            let wrong = service(ExchangeKey(access: "someone-else", secret: "a-wrong-secret-9876"))
            await wrong.refresh()
            let refused = wrong.report(.upbit)
            #expect(refused.state == .failing && refused.problem != nil)
            let said = (refused.problem.map { $0(.ko) + $0(.en) } ?? "") + "\(refused)"
            #expect(!said.contains("a-wrong-secret-9876") && !said.contains("someone-else"), "\(said)")
            await transport.shutdown()
        }
    }
}
