import Foundation
import Hummingbird
import SiseCore
import Synchronization

/// The exchanges' notices as the simulator plays them, in each one's own shape: Upbit's web JSON
/// (`/api-manager/api/v1/announcements`, ISO times with `+09:00`), Bithumb's `/bithumb/v1/notices`
/// (KST wall times, the id only in `pc_url`) and Korbit's `/v2/notices` (epoch ms, `noticeId` in
/// the URL). A few stand from the start; `POST /_sim/notices {"exchange","title","category"?}`
/// posts one now; `GET /_sim/notices` counts the calls.
final class SimNotices: Sendable {
    struct Posted: Sendable {
        var id: Int
        var title: String
        var category: String
        /// Seconds since 1970.
        var at: Double
    }

    struct Post: Decodable {
        var exchange: String
        var title: String
        var category: String?
    }

    private struct State {
        var posted: [Exchange: [Posted]] = [:]
        var next = 9_000
        var calls: [Exchange: Int] = [:]
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    /// The standing notices and the posted ones, newest first.
    func notices(_ exchange: Exchange) -> [Posted] {
        let now = clock()
        let standing = [
            Posted(id: 7_003, title: "이더리움(ETH) 네트워크 업그레이드에 따른 입출금 일시 중단 안내", category: "입출금", at: now - 3_600),
            Posted(id: 7_002, title: "시스템 정기 점검 안내", category: "점검", at: now - 86_400),
            Posted(id: 7_001, title: "리플(XRP) 원화 마켓 디지털 자산 추가", category: "마켓추가", at: now - 2 * 86_400),
        ]
        return state.withLock { s in
            s.calls[exchange, default: 0] += 1
            return (s.posted[exchange] ?? []).reversed() + standing
        }
    }

    func post(_ post: Post) -> Bool {
        guard let exchange = Exchange(name: post.exchange), !post.title.isEmpty, post.title.utf8.count <= 300 else { return false }
        let at = clock()
        state.withLock { s in
            s.next += 1
            s.posted[exchange, default: []].append(Posted(id: s.next, title: post.title, category: post.category ?? "안내", at: at))
        }
        return true
    }

    var json: String {
        state.withLock { s in "{\"calls\":{" + Exchange.allCases.map { "\"\($0.rawValue)\":\(s.calls[$0] ?? 0)" }.joined(separator: ",") + "}}" }
    }

    static func kst(_ at: Double, iso: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat = iso ? "yyyy-MM-dd'T'HH:mm:ssxxx" : "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: at))
    }

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/api-manager/api/v1/announcements") { _, _ in
            let rows = self.notices(.upbit).map { n in
                #"{"listed_at":"\#(Self.kst(n.at, iso: true))","first_listed_at":"\#(Self.kst(n.at, iso: true))","id":\#(n.id),"title":\#(JSONString.quoted(n.title)),"category":\#(JSONString.quoted(n.category == "마켓추가" ? "거래" : n.category)),"need_new_badge":false,"need_update_badge":false}"#
            }
            return SimResponses.json(
                #"{"success":true,"data":{"total_pages":1,"total_count":\#(rows.count),"notices":[\#(rows.joined(separator: ","))],"fixed_notices":[]}}"#
            )
        }
        router.get("/bithumb/v1/notices") { _, _ in
            let rows = self.notices(.bithumb).map { n in
                #"{"categories":[\#(JSONString.quoted(n.category))],"title":\#(JSONString.quoted(n.title)),"pc_url":"https://feed.bithumb.com/notice/\#(n.id)","published_at":"\#(Self.kst(n.at, iso: false))","modified_at":"\#(Self.kst(n.at, iso: false))"}"#
            }
            return SimResponses.json("[" + rows.joined(separator: ",") + "]")
        }
        router.get("/v2/notices") { _, _ in
            let rows = self.notices(.korbit).map { n in
                #"{"title":\#(JSONString.quoted(n.title)),"createdAt":\#(Int64(n.at * 1_000)),"url":"https://www.korbit.co.kr/notice/detail/?noticeId=sim\#(n.id)"}"#
            }
            return SimResponses.json(#"{"success":true,"data":[\#(rows.joined(separator: ","))]}"#)
        }
        router.get("/_sim/notices") { _, _ in SimResponses.json(self.json) }
        router.post("/_sim/notices") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let post = try? JSONDecoder().decode(Post.self, from: Data(body.readableBytesView)), self.post(post) else {
                return SimResponses.error(status: 400, name: "bad_notice", message: #"{"exchange","title","category"?}"#)
            }
            return SimResponses.json(self.json)
        }
    }
}
