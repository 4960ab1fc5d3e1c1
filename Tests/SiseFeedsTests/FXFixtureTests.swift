import Foundation
import SiseCore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// The official rates' real replies decode exactly: Korea Eximbank's strings with commas,
/// `JPY(100)`, its `KRW` row; Dunamu's bank rate.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct FXFixtureTests {
    @Test func eximbanksReplyOfOneDay() throws {
        guard case .rates(let rates) = try KoreaEximClient.parse(try RealFixtures.data("fx-koreaexim-ap01-20190314.json")) else {
            Issue.record("a day with rates")
            return
        }
        #expect(rates.count == 22)
        #expect(rates["USD"] == 1_134.5, "\"1,134.5\" with its comma")
        #expect(rates["BHD"] == 3_009.12)
        #expect(rates["KRW"] == 1)
        let yenPerHundred = try #require(rates["JPY"])
        #expect(yenPerHundred > 9 && yenPerHundred < 11, "JPY(100) is per 100 yen: \(yenPerHundred) per yen")
    }

    @Test func eximbankOverTheFixtureWalksNoFurther() async throws {
        let transport = StubTransport([
            "": { _ in HTTPResponseData(status: 200, headers: [:], body: try RealFixtures.data("fx-koreaexim-ap01-20190314.json")) }
        ])
        let client = KoreaEximClient(baseURL: URL(string: "https://exim.test")!, key: "k", transport: transport)
        // 2019-03-14 15:00 KST.
        let (rate, at) = try await client.krwPerUSD(now: 1_552_543_200_000)
        #expect(rate == 1_134.5)
        #expect(at == 1_552_528_800_000, "posted that day at 11:00 KST")
        let url = try #require(transport.requests.first)
        #expect(url.path == "/site/program/financial/exchangeJSON")
        #expect(url.query?.contains("searchdate=20190314") == true && url.query?.contains("data=AP01") == true)
    }

    @Test func dunamusBankRate() async throws {
        let transport = StubTransport([
            "": { _ in HTTPResponseData(status: 200, headers: [:], body: try RealFixtures.data("fx-dunamu-forex-recent-krwusd-2021.json")) }
        ])
        let (rate, posted) = try await DunamuForexClient(transport: transport).krwPerUSD()
        #expect(rate == 1_169)
        #expect(posted != nil)
    }
}

/// Korea Eximbank's traps, on replies written here: holidays answer `[]` (walk back a day at a
/// time), errors are HTTP 200 with a `result` code, and a reply without a number is no rate.
@Suite struct KoreaEximClientTests {
    static let usd = #"[{"result":1,"cur_unit":"USD","deal_bas_r":"1,394.2"},{"result":1,"cur_unit":"KRW","deal_bas_r":"1"}]"#

    @Test func holidaysWalkBackToTheLastPosting() async throws {
        // Nothing on Sunday 2026-11-29 and Saturday; Friday's posting.
        let answers = Mutex([String: String]())
        answers.withLock { $0["20261127"] = Self.usd }
        let walking = StubTransport([
            "": { url in
                let day = url.query?.split(separator: "&").first { $0.hasPrefix("searchdate=") }?.dropFirst("searchdate=".count) ?? ""
                return HTTPResponseData(status: 200, headers: [:], body: Data((answers.withLock { $0[String(day)] } ?? "[]").utf8))
            }
        ])
        let client = KoreaEximClient(baseURL: URL(string: "https://exim.test")!, key: "k", transport: walking)
        // Sunday 2026-11-29 10:00 KST.
        let (rate, at) = try await client.krwPerUSD(now: 1_795_914_000_000)
        #expect(rate == 1_394.2)
        #expect(walking.requests.count == 3, "Sunday, Saturday, Friday")
        #expect(at == 1_795_744_800_000, "Friday 11:00 KST")
    }

    @Test(arguments: [
        (#"[{"result":3,"cur_unit":null,"deal_bas_r":null}]"#, 401),
        (#"[{"result":4,"cur_unit":null,"deal_bas_r":null}]"#, 429),
        (#"[{"result":2,"cur_unit":null,"deal_bas_r":null}]"#, 400),
        (#"[{"result":1,"cur_unit":"USD","deal_bas_r":"n/a"}]"#, 0),
        (#"{"result":1}"#, 0),
    ])
    func errorsAreClearAndNeverARate(_ body: String, _ status: Int) throws {
        do {
            let reply = try KoreaEximClient.parse(Data(body.utf8))
            Issue.record("\(body) gave \(reply)")
        } catch let error as FeedError {
            #expect((error.status ?? 0) == status, "\(body): \(error)")
        }
    }

    @Test func nothingPostedInAWeekIsAnError() async throws {
        let transport = StubTransport()
        transport.stub("", body: Data("[]".utf8))
        let client = KoreaEximClient(baseURL: URL(string: "https://exim.test")!, key: "k", transport: transport)
        await #expect(throws: FeedError.self) { try await client.krwPerUSD(now: 1_795_914_000_000) }
        #expect(transport.requests.count == KoreaEximClient.walkBackDays + 1)
    }
}
