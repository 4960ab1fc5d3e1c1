import Foundation
import SiseCore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// Korbit's and Bithumb's flags come from a list of their own, read apart from the market list.
/// A coin delisted (or listed again) between the two reads once looked like a caution lifted
/// (then set again): the history told of a "cleared" and a "flagged" nobody made. The flags are
/// read before and after the list, and a coin the two readings disagree on says nothing this time.
@Suite struct FlagsReadAroundListTests {
    /// Answers `path` with each body in turn (the last one from then on).
    func inTurn(_ transport: StubTransport, _ path: String, _ bodies: [String]) {
        let calls = Mutex(0)
        transport.stub(path) { _ in
            let call = calls.withLock { count in
                defer { count += 1 }
                return count
            }
            return HTTPResponseData(status: 200, headers: [:], body: Data(bodies[min(call, bodies.count - 1)].utf8))
        }
    }

    @Test func aKorbitCoinWhoseAlertGoesMidReadIsNotReadAsCleared() async throws {
        let transport = StubTransport()
        transport.stub(
            "/v2/currencyPairs",
            body: Data(#"{"success":true,"data":[{"symbol":"eth_krw","status":"launched"},{"symbol":"btc_krw","status":"launched"}]}"#.utf8)
        )
        let alerted =
            #"{"success":true,"data":[{"symbol":"eth_krw","alerts":[{"type":"concentration","startAt":1,"endAt":2,"value":"1"}]},"#
            + #"{"symbol":"btc_krw","alerts":[{"type":"price","level":"danger","startAt":1,"endAt":2,"value":"25"}]}]}"#
        let ethGone =
            #"{"success":true,"data":[{"symbol":"btc_krw","alerts":[{"type":"price","level":"danger","startAt":1,"endAt":2,"value":"25"}]}]}"#
        inTurn(transport, "/v2/marketAlerts", [alerted, ethGone])
        let client = KorbitClient(configuration: .init(baseURL: URL(string: "http://korbit.test")!), transport: transport)
        let markets = Dictionary(uniqueKeysWithValues: try await client.markets().map { ($0.id.code, $0) })
        #expect(markets["KRW-ETH"]?.flagsKnown == false)
        #expect(markets["KRW-BTC"]?.flagsKnown == true && markets["KRW-BTC"]?.cautionLevel == .danger)
        // Read again, the readings agree: the caution is gone (ETH's alert ended).
        let again = Dictionary(uniqueKeysWithValues: try await client.markets().map { ($0.id.code, $0) })
        #expect(again["KRW-ETH"]?.flagsKnown == true && again["KRW-ETH"]?.cautions == [])
        let look = MarketEventRule.Observation(exchange: .korbit, markets: try await client.markets())
        #expect(look.flags?["ETH"]?.isClear == true)
    }

    @Test func aSecondReadingThatFailsLeavesTheFirstShownButNotTaken() async throws {
        let transport = StubTransport()
        transport.stub("/v2/currencyPairs", body: Data(#"{"success":true,"data":[{"symbol":"btc_krw","status":"launched"}]}"#.utf8))
        let calls = Mutex(0)
        transport.stub("/v2/marketAlerts") { url in
            guard
                calls.withLock({ count in
                    defer { count += 1 }
                    return count == 0
                })
            else { throw FeedError.unreachable(host: url.host ?? "?", reason: "reset") }
            let body =
                #"{"success":true,"data":[{"symbol":"btc_krw","alerts":[{"type":"price","level":"danger","startAt":1,"endAt":2,"value":"25"}]}]}"#
            return HTTPResponseData(status: 200, headers: [:], body: Data(body.utf8))
        }
        let client = KorbitClient(configuration: .init(baseURL: URL(string: "http://korbit.test")!), transport: transport)
        let btc = try #require(try await client.markets().first)
        #expect(btc.cautions == ["PRICE"] && btc.cautionLevel == .danger && !btc.flagsKnown)
        #expect(MarketEventRule.Observation(exchange: .korbit, markets: [btc]).flags?["BTC"] == nil)
    }

    @Test func aBithumbWarningSetMidReadIsNotReadAsFlagged() async throws {
        let transport = StubTransport()
        transport.stub(
            "/v1/market/all",
            body: Data(
                #"[{"market":"KRW-ETH","korean_name":"이더리움","english_name":"Ethereum"},{"market":"KRW-XRP","korean_name":"리플","english_name":"Ripple"}]"#
                    .utf8
            )
        )
        let none = "[]"
        let eth =
            #"[{"market":"KRW-ETH","warning_type":"TRADING_VOLUME_SUDDEN_FLUCTUATION","warning_step":"CAUTION","end_date":"2026-07-31 06:59:59"}]"#
        inTurn(transport, "/v1/market/virtual_asset_warning", [none, eth])
        let client = V1QuotationClient(configuration: .init(baseURL: URL(string: "http://bithumb.test")!, dialect: .bithumb), transport: transport)
        let markets = Dictionary(uniqueKeysWithValues: try await client.markets().map { ($0.id.code, $0) })
        #expect(markets["KRW-ETH"]?.flagsKnown == false)
        #expect(markets["KRW-XRP"]?.flagsKnown == true && markets["KRW-XRP"]?.cautions == [])
        let again = Dictionary(uniqueKeysWithValues: try await client.markets().map { ($0.id.code, $0) })
        #expect(again["KRW-ETH"]?.flagsKnown == true && again["KRW-ETH"]?.cautions == ["TRADING_VOLUME_SUDDEN_FLUCTUATION"])
        // Tickers by REST need the list only: no warnings are read for them.
        transport.stub("/v1/ticker", body: Data("[]".utf8))
        let warningsRead = transport.requests.filter { $0.path.hasSuffix("virtual_asset_warning") }.count
        _ = try? await client.tickers(quotes: [.krw])
        #expect(transport.requests.filter { $0.path.hasSuffix("virtual_asset_warning") }.count == warningsRead)
    }
}
