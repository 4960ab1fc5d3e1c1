import Foundation
import SiseCore

/// An exchange's latest notices (공지) as it publishes them, newest changes first.
public protocol NoticeSource: Sendable {
    func notices() async throws -> [ExchangeNotice]
}

/// How one exchange's notices are read, or that it publishes none in a form Sise can read.
public enum NoticeFeed: Sendable {
    case source(any NoticeSource)
    case notPublished
}

/// Bithumb's public `GET /v1/notices?count=20`: `{categories[], title, pc_url, published_at,
/// modified_at}` with KST wall times and no id — the notice number is `pc_url`'s last segment.
struct BithumbNoticeDTO: Decodable {
    var categories: [String]?
    var title: String
    var pc_url: String?
    var published_at: String?
    var modified_at: String?

    func toNotice() -> ExchangeNotice? {
        guard let url = pc_url, let id = url.split(separator: "/").last.map(String.init), !id.isEmpty, id.utf8.count <= 40,
            let listed = (modified_at ?? published_at).flatMap(KSTText.epoch(wallTime:))
        else { return nil }
        return ExchangeNotice(
            exchange: .bithumb,
            id: id,
            title: String(title.prefix(300)),
            category: categories?.joined(separator: ", "),
            firstListedAt: published_at.flatMap(KSTText.epoch(wallTime:)),
            listedAt: listed,
            url: url
        )
    }
}

/// Korbit's public `GET /v2/notices`: the 20 newest `{title, createdAt, updatedAt?, url}` (epoch
/// ms); the id is `url`'s `noticeId`.
struct KorbitNoticeDTO: Decodable {
    var title: String
    var createdAt: Int64?
    var updatedAt: Int64?
    var url: String?

    func toNotice() -> ExchangeNotice? {
        guard let url, let id = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "noticeId" })?.value, !id.isEmpty,
            id.utf8.count <= 60, let listed = updatedAt ?? createdAt, listed > 0
        else { return nil }
        return ExchangeNotice(
            exchange: .korbit,
            id: id,
            title: String(title.prefix(300)),
            category: nil,
            firstListedAt: createdAt,
            listedAt: listed,
            url: url
        )
    }
}

/// Upbit's announcements — no Open API exists: its web JSON on `api-manager.upbit.com`
/// (`/api/v1/announcements?os=web&page=1&per_page=20&category=all`; see upbit.md §11). Asked with a
/// browser's `Accept`, rarely (it is not a documented API).
public struct UpbitNoticesClient: NoticeSource {
    /// A literal that parses (no outside input reaches it).
    public static let liveURL = URL(string: "https://api-manager.upbit.com")!
    let baseURL: URL
    let transport: any HTTPTransport

    public init(baseURL: URL, transport: any HTTPTransport) {
        self.baseURL = baseURL
        self.transport = transport
    }

    public func notices() async throws -> [ExchangeNotice] {
        let url = try RESTURL.make(baseURL, "/api/v1/announcements", ["os": "web", "page": "1", "per_page": "20", "category": "all"])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw UpbitDecoding.error(status: response.status, body: response.body) }
        return try UpbitDecoding.decode(UpbitAnnouncementsDTO.self, from: response.body, context: "announcements").toNotices()
    }
}

extension KorbitClient: NoticeSource {}
/// Bithumb's (the `.bithumb` dialect); Upbit's are `UpbitNoticesClient`'s.
extension V1QuotationClient: NoticeSource {}
