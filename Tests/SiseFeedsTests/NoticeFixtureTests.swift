import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The exchanges' notices, decoded from the recorded answers — Bithumb's and Korbit's are
/// documentation examples (SOURCES.md: Korbit's with placeholder values) — and what each announces.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct NoticeFixtureTests {
    @Test func bithumbsIdIsInItsAddressAndItsTimesAreKST() throws {
        let notices = try JSONDecoder().decode([BithumbNoticeDTO].self, from: RealFixtures.data("bithumb-v1-notices-docs-example.json")).compactMap {
            $0.toNotice()
        }
        #expect(notices.map(\.id) == ["1647203", "1647199", "1647039"])
        #expect(notices.map(\.kind) == [.other, .listing, .maintenance], "an airdrop event for a listing is an event")
        let listing = notices[1]
        #expect(listing.symbols == ["SHELL"] && listing.category == "마켓추가" && listing.url == "https://feed.bithumb.com/notice/1647199")
        // 2025-02-28 15:10:59 KST last changed, first published 11:12:14.
        #expect(
            listing.listedAt == KSTText.epoch(wallTime: "2025-02-28 15:10:59")
                && listing.firstListedAt == KSTText.epoch(wallTime: "2025-02-28 11:12:14")
        )
    }

    @Test func korbitsIdIsItsNoticeId() throws {
        struct Envelope: Decodable { var data: [KorbitNoticeDTO] }
        let notices = try JSONDecoder().decode(Envelope.self, from: RealFixtures.data("korbit-v2-notices-docs-example.json")).data.compactMap {
            $0.toNotice()
        }
        #expect(notices.count == 1 && notices[0].id == "4Oy9q6ALiM7jABzMt32ul5" && notices[0].listedAt == 1_700_000_000_000)
    }

    @Test(
        arguments: [
            ("딥북(DEEP) KRW 마켓 디지털 자산 추가", "거래", NoticeKind.listing),
            ("[거래] 코스모스(ATOM) 거래지원 종료 안내", nil, .delisting),
            ("이더리움(ETH) 네트워크 업그레이드에 따른 입출금 일시 중단 안내", nil, .wallet),
            ("시스템 정기 점검 안내", nil, .maintenance),
            ("하나의 안내문", "안내", .other),
            ("마이쉘(SHELL) 원화 마켓 추가 기념 에어드랍 이벤트", "이벤트, 안내", .other),
        ] as [(String, String?, NoticeKind)]
    )
    func whatANoticeAnnounces(_ title: String, category: String?, kind: NoticeKind) {
        #expect(NoticeKind.of(title: title, category: category) == kind)
    }

    @Test func hostileNotices() throws {
        let bad =
            #"[{"title":"<script>x</script>","pc_url":"javascript:alert(1)","published_at":"2025-02-28T15:00:00Z"},{"title":"t","pc_url":"https://feed.bithumb.com/notice/1","modified_at":"2025-02-28 15:00:00"}]"#
        let notices = try JSONDecoder().decode([BithumbNoticeDTO].self, from: Data(bad.utf8)).compactMap { $0.toNotice() }
        #expect(notices.count == 1, "a time written otherwise is not guessed")
        let korbit = try JSONDecoder().decode(
            [KorbitNoticeDTO].self,
            from: Data(#"[{"title":"x","createdAt":5,"url":"http://evil/?noticeId=a"}]"#.utf8)
        ).compactMap { $0.toNotice() }
        #expect(korbit.first?.url == nil, "only https addresses are links")
    }
}
