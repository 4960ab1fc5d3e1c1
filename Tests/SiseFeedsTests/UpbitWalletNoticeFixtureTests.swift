import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Upbit's wallet status, withdrawal terms and announcements, decoded from the recorded answers.
/// The wallet and withdrawal files are Upbit's documentation examples (no real capture exists:
/// both endpoints need a key); the announcements are real captures of its web JSON.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct UpbitWalletNoticeFixtureTests {
    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try UpbitDecoding.decode(T.self, from: RealFixtures.data(name), context: name)
    }

    @Test(arguments: ["upbit-status-wallet-docs-example.json", "upbit-global-status-wallet-docs-example.json"])
    func walletStatusRowsAreOnePerCurrencyAndNetwork(_ name: String) throws {
        let rows = try decode([UpbitWalletStatusDTO].self, name).map { $0.toWalletStatus() }
        let btc = try #require(rows.first)
        #expect(btc.currency == "BTC" && btc.network == "BTC" && btc.networkName == "Bitcoin")
        #expect(btc.deposit == true && btc.withdraw == true && btc.block == .normal)
        #expect(rows.contains { $0.currency == "XRP" && $0.networkName == "XRP Ledger" })
        if name.contains("global") {
            #expect(rows.contains { $0.currency == "USDT" && $0.network == "ETH" }, "USDT once per chain, keyed by net_type")
        } else {
            // 2025-07-04T08:02:05.526+00:00
            #expect(btc.blockUpdatedAt == 1_751_616_125_526)
        }
    }

    @Test(
        arguments: [
            ("working", true, true), ("withdraw_only", false, true), ("deposit_only", true, false), ("paused", false, false),
            ("unsupported", false, false), ("something_new", nil, nil),
        ] as [(String, Bool?, Bool?)]
    )
    func walletStatesMeanWhatTheDocsSay(_ state: String, deposit: Bool?, withdraw: Bool?) throws {
        let json =
            #"[{"currency":"ATOM","wallet_state":"\#(state)","block_state":null,"block_height":null,"block_updated_at":null,"block_elapsed_minutes":null,"net_type":"ATOM","network_name":"Cosmos"}]"#
        let row = try #require(try UpbitDecoding.decode([UpbitWalletStatusDTO].self, from: Data(json.utf8), context: "test").first).toWalletStatus()
        #expect(row.deposit == deposit && row.withdraw == withdraw && row.block == nil && row.blockUpdatedAt == nil)
    }

    @Test func withdrawalTermsTrustWalletSupport() throws {
        let terms = try decode(UpbitWithdrawChanceDTO.self, "upbit-withdraws-chance-btc-docs-example.json").toTerms()
        #expect(terms == WithdrawalTerms(currency: "BTC", fee: "0.0008", minimum: "0.00001", deposit: true, withdraw: true))
        let shut = #"{"currency":{"code":"ATOM","withdraw_fee":"0.1","wallet_support":[]},"withdraw_limit":{"minimum":"1","can_withdraw":false}}"#
        let closed = try UpbitDecoding.decode(UpbitWithdrawChanceDTO.self, from: Data(shut.utf8), context: "test").toTerms()
        #expect(closed.deposit == false && closed.withdraw == false, "an empty wallet_support: both closed")
    }

    @Test func announcementsNameTheirCoinsAndKeepKST() throws {
        let current = try decode(UpbitAnnouncementsDTO.self, "upbit-web-announcements-excerpt-2025.json").toNotices()
        #expect(current.map(\.id) == ["5030", "5056", "5055"], "ordered by last change, ids not monotonic")
        let listing = try #require(current.last)
        #expect(listing.symbols == ["DEEP"] && listing.category == "거래" && listing.kind == .listing)
        // 2025-04-22T13:58:32+09:00
        #expect(listing.listedAt == 1_745_297_912_000 && listing.firstListedAt == listing.listedAt)
        #expect(current[0].symbols == ["VAL"] && current[0].firstListedAt ?? 0 < current[0].listedAt, "an edited notice")
        let legacy = try decode(UpbitAnnouncementsDTO.self, "upbit-web-notices-general-2023-legacy.json").toNotices()
        #expect(legacy.first?.id == "3911" && legacy.first?.symbols == ["AAVE"] && legacy.first?.category == nil)
        #expect(legacy.contains { $0.symbols == ["ATOM"] })
    }

    @Test func symbolsAreTakenFromParentheses() {
        #expect(ExchangeNotice.symbols(in: "딥북(DEEP) KRW 마켓 디지털 자산 추가") == ["DEEP"])
        #expect(ExchangeNotice.symbols(in: "[NFT 드롭스] 전은숙, 피페팅 - 골라먹는 미미(美味) ") == [])
        #expect(ExchangeNotice.symbols(in: "상담 서비스 일시 중단 안내 (04/28 03:00 ~)") == [])
        #expect(ExchangeNotice.symbols(in: "(BTC)(ETH)(BTC) (1INCH) (") == ["BTC", "ETH", "1INCH"])
    }
}
