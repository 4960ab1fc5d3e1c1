import Foundation
import SiseEngine
import SiseSimulator
import SiseStore
import Synchronization
import Testing

@testable import SiseCore
@testable import SiseFeeds
@testable import SiseServer

/// A mutation fuzzer over every parser that takes outside bytes: headers, paths, query
/// parameters, WebSocket view messages, the Upbit and CoinGecko answers (through the real
/// clients), and the byte-level ticker decoder. A run passes when nothing traps. Short here;
/// `scripts/fuzz.sh` runs it long (SISE_FUZZ_ITERATIONS, SISE_FUZZ_SEED). A crash input found
/// becomes a case in the regression lists below.
@Suite struct ParserFuzzTests {
    static let iterations = Int(ProcessInfo.processInfo.environment["SISE_FUZZ_ITERATIONS"] ?? "") ?? 1_500
    static let seed = UInt64(ProcessInfo.processInfo.environment["SISE_FUZZ_SEED"] ?? "") ?? 0x5153_4520

    /// Inputs that once broke a parser (kept forever).
    static let regressions = [";", ";;", "1e20", "inf", "-inf", "nan", "%00", "//.", "\u{0}", String(repeating: "9", count: 400)]

    static let tokens: [String] = [
        "", ";", ",", "=", "q=", "q=0", "q=1.0", "-", "--", "KRW-", "-BTC", "KRW-BTC", "krw-btc", "1e20", "1e308", "-1e308", "NaN",
        "Infinity", "-0", "0x10", "9999999999999999999999", "\"", "\\", "\\u0000", "\u{0}", "\u{1F600}", "ㅂㅌ", "비트코인", "{", "}",
        "[", "]", "null", "true", "[]", "{}", ":", "%", "%00", "%ZZ", "//", "/..", "\r\n", " ", "\t", "<script>", "&amp;",
    ]

    /// A random mutation of `base`: splices, token inserts, truncation, byte flips.
    static func mutate(_ base: [UInt8], _ random: inout FuzzRandom) -> [UInt8] {
        var bytes = base
        for _ in 0..<(1 + Int(random.next() % 4)) {
            let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 6 {
            case 0: bytes.insert(contentsOf: Array(tokens[Int(random.next() % UInt64(tokens.count))].utf8), at: at)
            case 1: if !bytes.isEmpty { bytes[min(at, bytes.count - 1)] ^= UInt8(truncatingIfNeeded: random.next()) }
            case 2: bytes = Array(bytes.prefix(at))
            case 3: if at < bytes.count { bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 16))) }
            case 4: bytes.insert(contentsOf: bytes.prefix(64), at: at)
            default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            }
        }
        return bytes
    }

    static func cases(_ seeds: [String], salt: UInt64) -> [String] {
        var random = FuzzRandom(seed: seed ^ salt)
        let bases = seeds.map { Array($0.utf8) }
        return regressions
            + (0..<iterations).map { _ in
                String(decoding: mutate(bases[Int(random.next() % UInt64(bases.count))], &random), as: UTF8.self)
            }
    }

    @Test func headersPathsAndIdentifiers() {
        for text in Self.cases(
            [
                "ko-KR,ko;q=0.9,en-US;q=0.8", "en;q=0.5", "group=ticker; min=600; sec=9", "2.5",
                "/api/markets/KRW-BTC", "127.0.0.1:8080", "[::1]:80", "GET /api/status HTTP/1.1\r",
            ],
            salt: 1
        ) {
            _ = Language(preference: text)
            _ = RetryAfter.parse(text)
            _ = RemainingRequests(header: text)
            _ = PathGuardMiddleware.isAcceptable(text)
            _ = PublicOrigin.split(text)
            _ = ConnectionGuard.isRequestLine(Array(text.utf8))
            _ = FavoriteItem.readings(text)
            _ = MarketID(text)
            _ = TickSize.parse(text)
            _ = CoinInfoService.normalizedQuery(text)
        }
    }

    @Test func viewMessagesAndQueryParameters() {
        let view = #"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"ㅂㅌ","favoritesOnly":false,"lang":"ko"}"#
        for text in Self.cases([view, #"{"type":"view"}"#, "KRW", "desc", "price"], salt: 2) {
            _ = try? BoardClientView.parse(text, fallbackLanguage: .ko)
            _ = try? ViewParameters(quote: text, sort: text, order: text, q: text, favorites: text)
            _ = try? ViewParameters(quote: "KRW", sort: "price", order: "asc", q: text, favorites: "true")
        }
    }

    @Test func tickerFramesThroughBothDecoders() {
        let frames =
            SimulatorFrames.tickers(count: 8, format: .default) + SimulatorFrames.tickers(count: 8, format: .simple)
            + [#"{"status":"UP"}"#, #"{"error":{"name":"NO_TICKET","message":"x"}}"#]
        for text in Self.cases(frames, salt: 3) {
            var bytes = Array(text.utf8)
            _ = bytes.withUnsafeMutableBytes { UpbitTickerWire().decode(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Upbit's and CoinGecko's answers through the real clients, from a transport that answers
    /// with the fuzzed body.
    @Test func restAnswersThroughTheRealClients() async {
        let upbitSeeds = [
            #"[{"market":"KRW-BTC","korean_name":"비트코인","english_name":"Bitcoin","market_event":{"warning":false,"caution":{}}}]"#,
            #"[{"market":"KRW-BTC","trade_price":1000.0,"change":"RISE","signed_change_price":1,"signed_change_rate":0.001,"timestamp":1758875205276,"trade_timestamp":1758875205145,"acc_trade_price_24h":1e9}]"#,
            #"[{"market":"KRW-BTC","candle_date_time_utc":"2025-09-26T08:00:00","opening_price":1,"high_price":2,"low_price":1,"trade_price":2,"candle_acc_trade_price":1,"candle_acc_trade_volume":1,"timestamp":1}]"#,
            #"[{"market":"KRW-BTC","quote_currency":"KRW","tick_size":"1000","supported_levels":[0]}]"#,
            #"{"error":{"name":404,"message":"Code not found"}}"#,
        ]
        let geckoSeeds = [
            #"{"coins":[{"item":{"id":"bitcoin","name":"Bitcoin","symbol":"BTC","market_cap_rank":1,"thumb":"https://x/y.png","score":0,"data":{"price":1.5,"price_change_percentage_24h":{"usd":1.2}}}}],"nfts":[]}"#,
            #"{"coins":[{"id":"bitcoin","name":"Bitcoin","symbol":"BTC","market_cap_rank":1,"thumb":"t"}],"nfts":[],"exchanges":[]}"#,
            #"{"prices":[[1758875205276,1.5],[1e20,2.0]]}"#,
            #"{"rates":{"krw":{"value":1400.5},"usd":{"value":1}}}"#,
            #"[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":1.0,"market_cap":1,"market_cap_rank":1}]"#,
            #"{"bitcoin":{"krw":1,"krw_24h_change":0.5,"last_updated_at":1758875205}}"#,
            #"{"status":{"error_code":429,"error_message":"limit"}}"#,
        ]
        let upbitCases = Self.cases(upbitSeeds, salt: 4)
        let geckoCases = Self.cases(geckoSeeds, salt: 5)
        let transport = FuzzTransport()
        let upbit = V1QuotationClient(
            configuration: .init(baseURL: URL(string: "http://fuzz")!, maxRetriesAfter429: 0),
            transport: transport,
            limiter: RateLimiter(limit: 1_000_000)
        )
        let gecko = CoinGeckoClient(configuration: .init(baseURL: URL(string: "http://fuzz/api/v3")!), transport: transport)
        let btc = MarketID("KRW-BTC")!
        for (index, body) in upbitCases.enumerated() {
            transport.set(body, status: [200, 200, 200, 400, 404, 500][index % 6])
            _ = try? await upbit.markets()
            _ = try? await upbit.tickers(quotes: [.krw])
            _ = try? await upbit.candles(market: btc, unit: .days, count: 2, to: nil)
            _ = try? await upbit.tickSizes(markets: [btc])
        }
        for (index, body) in geckoCases.enumerated() {
            transport.set(body, status: [200, 200, 200, 400, 404, 500][index % 6])
            _ = try? await gecko.trending(krwPerUSD: 1_400)
            _ = try? await gecko.search("btc")
            _ = try? await gecko.chart(id: "bitcoin", days: 1)
            _ = try? await gecko.krwPerUSD()
            _ = try? await gecko.markets(ids: ["bitcoin"])
            _ = try? await gecko.simplePrice(ids: ["bitcoin"])
            _ = try? await gecko.coin(id: "bitcoin")
        }
    }

    /// Answers every request with the body and status set last.
    final class FuzzTransport: HTTPTransport {
        private let answer = Mutex(HTTPResponseData(status: 200, headers: [:], body: Data()))

        func set(_ body: String, status: Int) {
            answer.withLock { $0 = HTTPResponseData(status: status, headers: ["content-type": "application/json"], body: Data(body.utf8)) }
        }

        func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData {
            answer.withLock { $0 }
        }

        func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData {
            answer.withLock { $0 }
        }
    }
}

/// SplitMix64: a seeded, reproducible stream of random numbers for the fuzzer.
struct FuzzRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
