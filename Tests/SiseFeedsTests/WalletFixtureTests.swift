import Crypto
import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The exchanges' wallet status (입출금 현황) and withdrawal fees, decoded from the recorded answers
/// — every one of them a documentation example (SOURCES.md: no real capture of these endpoints was
/// found; Korbit's and Bithumb's carry placeholder values) — and from hostile answers written here.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct WalletFixtureTests {
    struct KorbitEnvelope: Decodable { var data: [KorbitCurrencyDTO] }

    @Test func korbitReadsEachNetworkAndSkipsTheWon() throws {
        let rows = try UpbitDecoding.decode(KorbitEnvelope.self, from: RealFixtures.data("korbit-v2-currencies-docs-example.json"), context: "korbit")
        let wallets = rows.data.flatMap { $0.toWallets() }
        #expect(!wallets.contains { $0.currency == "KRW" }, "the won has no network")
        #expect(
            wallets.map { "\($0.currency)/\($0.network)" } == ["BTC/BTC", "ETH/ETH", "ETH/BASE", "USDT/TRX"],
            "one row per network, the coin upper-cased"
        )
        let btc = try #require(wallets.first)
        #expect(btc.deposit == true && btc.withdraw == true && btc.withdrawFee == "0.0008" && btc.withdrawMinimum == "0.0001")
        #expect(btc.networkName == "Bitcoin" && btc.exchange == .korbit)
        #expect(KorbitCurrencyDTO.open("stopped") == false && KorbitCurrencyDTO.open("launched") == true && KorbitCurrencyDTO.open("new") == nil)
    }

    @Test(arguments: [
        ("coinone-v2-currencies-matic-excerpt.json", "MATIC", "3.0", "1.0"), ("coinone-v2-currency-btc-docs-example.json", "BTC", "0.0015", "0.0001"),
    ])
    func coinoneHasOneRowPerCoin(_ name: String, symbol: String, fee: String, minimum: String) throws {
        let body = try UpbitDecoding.decode(CoinoneCurrenciesDTO.self, from: RealFixtures.data(name), context: name)
        let wallet = try #require(body.toWallets().first)
        #expect(wallet.currency == symbol && wallet.network == symbol && wallet.deposit == true && wallet.withdraw == true)
        #expect(wallet.withdrawFee == fee && wallet.withdrawMinimum == minimum)
    }

    @Test func coinoneCallsAnythingButNormalShut() throws {
        let json = #"{"result":"success","currencies":[{"symbol":"eth","deposit_status":"suspended","withdraw_status":"maintenance"}]}"#
        let wallet = try #require(try JSONDecoder().decode(CoinoneCurrenciesDTO.self, from: Data(json.utf8)).toWallets().first)
        #expect(wallet.currency == "ETH" && wallet.deposit == false && wallet.withdraw == false && wallet.withdrawFee == nil)
    }

    /// Bithumb's fees name networks for people (`Ethereum`), its status by id (`ETH`): a fee is
    /// joined only where its network is certain.
    @Test func bithumbJoinsAFeeOnlyWhereItsNetworkIsCertain() throws {
        let fees = try JSONDecoder().decode([BithumbFeeDTO].self, from: RealFixtures.data("bithumb-v2-fee-inout-docs-example.json"))
        let status = #"""
            {"status":"0000","data":[{"currency":"BTC","net_type":"BTC","deposit_status":1,"withdrawal_status":"0"},
            {"currency":"ETH","net_type":"ETH","deposit_status":"1","withdrawal_status":1},
            {"currency":"ETH","net_type":"ARB","deposit_status":0,"withdrawal_status":"x"}]}
            """#
        let rows = try #require(try JSONDecoder().decode(BithumbAssetsStatusDTO.self, from: Data(status.utf8)).data)
        let wallets = BithumbFeeDTO.join(rows, fees: fees)
        #expect(wallets.count == 3)
        #expect(wallets[0].withdrawFee == "0.0002" && wallets[0].withdrawMinimum == "0.002", "BTC: one network on both lists")
        #expect(wallets[0].deposit == true && wallets[0].withdraw == false, "1 as a number, \"0\" as a string")
        #expect(wallets[1].withdrawFee == nil && wallets[2].withdrawFee == nil, "ETH's three named networks are not guessed onto ETH and ARB")
        #expect(wallets[2].deposit == false && wallets[2].withdraw == nil, "an unknown flag is not said")
    }

    /// Bithumb's keyed twin of Upbit's wallet status writes its block time in KST (`+09:00`).
    @Test func bithumbsKeyedStatusTellsTimeInKST() throws {
        let rows = try UpbitDecoding.decode(
            [UpbitWalletStatusDTO].self,
            from: RealFixtures.data("bithumb-v1-status-wallet-docs-example.json"),
            context: "bithumb"
        )
        let btc = try #require(rows.first?.toWalletStatus())
        // 2024-07-14T13:43:57+09:00 = 04:43:57 UTC.
        #expect(btc.blockUpdatedAt == 1_720_932_237_000 && btc.block == .normal && btc.deposit == true)
    }

    @Test(arguments: [#"{"status":"5600","message":"점검 중입니다"}"#, #"{"status":"0000"}"#])
    func bithumbsRefusalInHTTP200IsAClearError(_ body: String) async throws {
        let transport = CannedTransport(body: body)
        let client = V1QuotationClient(
            configuration: .init(baseURL: URL(string: "https://api.bithumb.com")!, dialect: .bithumb),
            transport: transport
        )
        await #expect(throws: FeedError.self) { _ = try await client.wallets() }
    }

    /// Upbit's token: HS512 over the access key and a nonce, verifiable with the secret as written.
    @Test func upbitsTokenIsSignedAndTheKeyIsNeverPrinted() throws {
        let key = try #require(ExchangeKey(access: "access-1", secret: "secret-2"))
        let token = UpbitWalletClient.token(key, nonce: "n-3")
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try #require(Base64URL.decode(parts[0]).flatMap { String(data: $0, encoding: .utf8) })
        let claims = try #require(Base64URL.decode(parts[1]).flatMap { String(data: $0, encoding: .utf8) })
        #expect(header == #"{"alg":"HS512","typ":"JWT"}"# && claims == #"{"access_key":"access-1","nonce":"n-3"}"#)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(
            HMAC<SHA512>.isValidAuthenticationCode(
                signature,
                authenticating: Data((parts[0] + "." + parts[1]).utf8),
                using: SymmetricKey(data: Data("secret-2".utf8))
            )
        )
        #expect(!"\(key)".contains("secret-2") && !String(reflecting: key).contains("secret-2") && !"\(key)".contains("access-1"))
        #expect(
            ExchangeKey(access: "a", secret: nil) == nil && ExchangeKey(access: "a b", secret: "c") == nil
                && ExchangeKey(access: "", secret: "c") == nil
        )
    }

    @Test func walletsSayWhatIsShutInOneWordPerSide() {
        func wallet(_ network: String, _ deposit: Bool?, _ withdraw: Bool?) -> WalletStatus {
            WalletStatus(exchange: .bithumb, currency: "USDT", network: network, deposit: deposit, withdraw: withdraw)
        }
        #expect(WalletSummary([]) == nil)
        #expect(WalletSummary([wallet("ETH", true, true)]) == WalletSummary(deposit: .open, withdraw: .open))
        #expect(WalletSummary([wallet("ETH", false, true), wallet("TRX", false, nil)]) == WalletSummary(deposit: .suspended, withdraw: .open))
        #expect(WalletSummary([wallet("ETH", false, false), wallet("TRX", true, true)]) == WalletSummary(deposit: .partial, withdraw: .partial))
        #expect(WalletSummary([wallet("ETH", nil, nil)]) == WalletSummary(deposit: .unknown, withdraw: .unknown))
        #expect(WalletSummary(deposit: .suspended, withdraw: .suspended).mark(.ko) == "입출금 중단")
        #expect(WalletSummary(deposit: .open, withdraw: .suspended).mark(.en) == "withdrawals suspended")
        #expect(WalletSummary(deposit: .partial, withdraw: .open).mark(.ko) == "일부 네트워크 입출금 중단")
        #expect(WalletSummary(deposit: .open, withdraw: .unknown).mark(.ko) == nil)
    }
}

/// One canned HTTP 200 answer for every call.
struct CannedTransport: HTTPTransport {
    let body: String

    func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData {
        HTTPResponseData(status: 200, headers: [:], body: Data(body.utf8))
    }

    func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData {
        HTTPResponseData(status: 200, headers: [:], body: Data(self.body.utf8))
    }
}
