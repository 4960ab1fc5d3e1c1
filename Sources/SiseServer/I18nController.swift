import Foundation
import Hummingbird
import SiseCore

/// `GET /i18n/{ko|en}.json`: the page's words, generated from SiseCore's tables (`UIText`, `EventText`),
/// so the page never keeps a second copy. The same bytes for everyone; cached for an hour.
struct I18nController {
    /// Encoded once per language at start-up.
    let tables: [String: ByteBuffer] = Dictionary(
        uniqueKeysWithValues: Language.allCases.map {
            ("\($0.rawValue).json", ByteBuffer(string: JSONText.encode(UIText.page($0))))
        }
    )

    /// Where a language's table is served.
    static func path(_ language: Language) -> String { "/i18n/\(language.rawValue).json" }

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/i18n/:file", use: table)
    }

    @Sendable func table(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        guard let file = ctx.parameters.get("file"), let body = tables[file] else {
            throw APIError.notFound(.missingLanguage)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: body)
        )
    }
}
