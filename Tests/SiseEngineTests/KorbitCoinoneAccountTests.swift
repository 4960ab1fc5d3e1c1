import Crypto
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore
import SiseTestSupport
import Testing

/// Korbit's and Coinone's accounts read with a person's key against the simulator's verifier:
/// Korbit's HMAC-SHA256 and ED25519 signatures inside its lopsided clock window, the key's own
/// permissions (one that may trade is refused before it is kept), Coinone's base64 payload and
/// HMAC-SHA512 with the secret read as given or — refused for the signature — upper-cased, its
/// UUID nonces; and every refusal in the exchange's own words, sorted by what to fix.
@Suite(.serialized) struct KorbitCoinoneAccountTests {
    static func korbit(_ simulator: RunningSimulator, _ key: ExchangeKey, clock: WallClock = .system, recvWindow: Int = 10_000) -> KorbitAccountClient
    {
        KorbitAccountClient(
            baseURL: ExchangeRegistry.spec(.korbit).simulated(at: simulator.baseURL).rest,
            key: key,
            transport: LiveHTTPTransport(),
            clock: clock,
            recvWindow: recvWindow
        )
    }

    static func coinone(_ simulator: RunningSimulator, _ key: ExchangeKey, nonce: String? = nil) -> CoinoneAccountClient {
        let url = ExchangeRegistry.spec(.coinone).simulated(at: simulator.baseURL).rest
        guard let nonce else { return CoinoneAccountClient(baseURL: url, key: key, transport: LiveHTTPTransport()) }
        return CoinoneAccountClient(baseURL: url, key: key, transport: LiveHTTPTransport(), nonce: { nonce })
    }

    static func problem(_ source: any AccountSource) async -> (FeedError?, KeyProblem?) {
        do {
            _ = try await source.balances()
            return (nil, nil)
        } catch {
            let error = error as? FeedError
            return (error, error?.keyProblem)
        }
    }

    @Test func theDemoAccountsAreReadWithEachExchangesSignature() async throws {
        try await withSimulator { simulator in
            for exchange in [Exchange.korbit, .coinone] {
                let key = try AccountReaderTests.demoKey(exchange)
                let source: any AccountSource = exchange == .korbit ? Self.korbit(simulator, key) : Self.coinone(simulator, key)
                let balances = try await source.balances()
                let cash = try #require(balances.first { $0.currency == "KRW" })
                #expect(cash.total == Decimal(string: "1300000.5") && cash.averageBuyPrice == nil, "\(exchange): cash is not a cost")
                #expect(balances.contains { $0.currency == "SISEDROP" && $0.total == 42 && $0.averageBuyPrice == nil }, "\(exchange)")
                let coins = balances.filter { $0.currency != "KRW" && $0.currency != "SISEDROP" }
                #expect(coins.count == 4 && coins.allSatisfy { ($0.averageBuyPrice ?? 0) > 0 }, "\(exchange): \(coins)")
                #expect(coins.contains { $0.locked == Decimal(string: "0.25") && $0.total == Decimal(string: "1.75") }, "\(exchange): locked")
            }
            // Korbit lets a key read its own permissions: the demo key only reads.
            #expect(try await Self.korbit(simulator, try AccountReaderTests.demoKey(.korbit)).tradesOrWithdraws() == false)
        }
    }

    @Test func aKorbitED25519KeySignsInBase64() async throws {
        try await withSimulator { simulator in
            let pair = Curve25519.Signing.PrivateKey()
            let publicKey = pair.publicKey.rawRepresentation.base64EncodedString()
            // PKCS #8 (RFC 8410) as `openssl genpkey -algorithm ed25519` writes it: a fixed header, the seed.
            let header: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
            let pkcs8 = Data(header) + pair.rawRepresentation
            try await SimAdmin.post(
                simulator,
                "/_sim/accounts",
                #"{"exchange":"korbit","access":"korbit-ed25519","secret":"unused","publicKey":"\#(publicKey)","balances":[{"currency":"BTC","balance":"0.5","locked":"0","avg_buy_price":"90000000","avg_buy_price_modified":false,"unit_currency":"KRW"}]}"#
            )
            for secret in [pkcs8.base64EncodedString(), "ed25519:" + pair.rawRepresentation.base64EncodedString()] {
                let key = try #require(ExchangeKey(access: "korbit-ed25519", secret: secret))
                let balances = try await Self.korbit(simulator, key).balances()
                #expect(balances.map(\.currency) == ["BTC"] && balances.first?.total == Decimal(string: "0.5"), "\(secret.prefix(12))")
            }
            // Another key pair's signature is refused.
            let other = try #require(
                ExchangeKey(access: "korbit-ed25519", secret: "ed25519:" + Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString())
            )
            #expect(await Self.problem(Self.korbit(simulator, other)).1 == .signature)
        }
    }

    @Test func everyKorbitRefusalSaysWhatToFix() async throws {
        try await withSimulator { simulator in
            let demo = try AccountReaderTests.demoKey(.korbit)
            let unknown = try #require(ExchangeKey(access: "nobody-korbit", secret: "whatever-secret-123"))
            let wrongSecret = try #require(ExchangeKey(access: demo.access, secret: "not-the-secret-0000"))
            let elsewhere = try await AccountReaderTests.register(simulator, .korbit, "elsewhere-korbit", #","addresses":["10.9.8.7"]"#)
            let narrow = try await AccountReaderTests.register(simulator, .korbit, "narrow-korbit", #","scopes":["orders"]"#)
            let old = try await AccountReaderTests.register(simulator, .korbit, "old-korbit", #","expiresAt":1000"#)
            let now = WallClock.system
            let rows: [(String, any AccountSource, String, KeyProblem)] = [
                ("unknown key", Self.korbit(simulator, unknown), "KEY_NOT_FOUND", .invalidKey),
                ("wrong secret", Self.korbit(simulator, wrongSecret), "INVALID_SIGNATURE", .signature),
                ("address", Self.korbit(simulator, elsewhere), "IP_NOT_ALLOWED", .addressNotAllowed),
                ("scope", Self.korbit(simulator, narrow), "PERMISSION_DENIED", .missingPermission),
                ("expired", Self.korbit(simulator, old), "EXPIRED_API_KEY", .expiredKey),
                // The window is lopsided: two seconds ahead is refused, nine behind is within ten.
                ("ahead", Self.korbit(simulator, demo, clock: WallClock { now.now + 2_000 }), "EXCEED_TIME_WINDOW", .clock),
                ("behind", Self.korbit(simulator, demo, clock: WallClock { now.now - 20_000 }), "EXCEED_TIME_WINDOW", .clock),
            ]
            for (what, source, name, problem) in rows {
                let (error, got) = await Self.problem(source)
                #expect(got == problem, "\(what): \(String(describing: error))")
                switch error {
                case .unauthorized(let n, _)?, .forbidden(let n, _)?, .badRequest(let n, _)?: #expect(n == name, "\(what)")
                default: Issue.record("\(what): \(String(describing: error))")
                }
            }
            #expect(await Self.problem(Self.korbit(simulator, demo, clock: WallClock { now.now - 9_000 })).0 == nil, "behind, within the window")
        }
    }

    @Test func aKeyThatMayTradeIsNotKept() async throws {
        try await withSimulator { simulator in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-keys-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try AppDatabase.open(directory: directory)
            let powerful = try await AccountReaderTests.register(simulator, .korbit, "trading-korbit", #","trades":true"#)
            let desk = AccountDesk(
                keys: ExchangeKeyStore(database: database),
                sources: { exchange, key in
                    ExchangeRegistry.spec(exchange).account(
                        ExchangeRegistry.spec(exchange).simulated(at: simulator.baseURL),
                        transport: LiveHTTPTransport(),
                        key: key
                    )
                },
                prices: { _, _ in [:] }
            )
            await #expect(throws: AccountDesk.Refusal.self) {
                try await desk.connect(owner: "o", exchange: .korbit, key: powerful, language: .ko)
            }
            #expect(try await desk.keys.saved(owner: "o").isEmpty)
            let kept = try await desk.connect(owner: "o", exchange: .korbit, key: try AccountReaderTests.demoKey(.korbit), language: .ko)
            #expect(kept.exchange == .korbit && kept.problem == nil)
            await database.close()
        }
    }

    @Test func coinoneSignsWithTheSecretAsGivenOrUpperCasedAndNeverReusesANonce() async throws {
        try await withSimulator { simulator in
            let demo = try AccountReaderTests.demoKey(.coinone)
            let asGiven = Self.coinone(simulator, demo)
            _ = try await asGiven.balances()
            #expect(asGiven.secretReading == .asGiven)
            // A key checked against the upper-cased secret: refused for the signature once, then read.
            let upper = try await AccountReaderTests.register(simulator, .coinone, "upper-coinone", #","upperSecret":true"#)
            let legacy = Self.coinone(simulator, upper)
            _ = try await legacy.balances()
            #expect(legacy.secretReading == .upperCased)
            _ = try await legacy.balances()

            let unknown = try #require(ExchangeKey(access: "nobody-coinone", secret: "whatever-secret-123"))
            let wrongSecret = try #require(ExchangeKey(access: demo.access, secret: "not-the-secret-0000"))
            let narrow = try await AccountReaderTests.register(simulator, .coinone, "narrow-coinone", #","scopes":["orders"]"#)
            #expect(await Self.problem(Self.coinone(simulator, unknown)).1 == .invalidKey)
            #expect(await Self.problem(Self.coinone(simulator, wrongSecret)).1 == .signature)
            #expect(await Self.problem(Self.coinone(simulator, narrow)).1 == .missingPermission)
            // A nonce once, then refused; one that is not a UUID v4 is refused at once.
            let fixed = Self.coinone(simulator, demo, nonce: UUID().uuidString.lowercased())
            #expect(await Self.problem(fixed).0 == nil)
            let replay = await Self.problem(fixed)
            #expect(replay.1 == .nonceReused && replay.0 == .badRequest(name: "131", message: "Nonce already used"))
            #expect(await Self.problem(Self.coinone(simulator, demo, nonce: "12345")).1 == .nonceReused)
        }
    }
}
