import Foundation
import HTTPTypes
import Hummingbird
import SiseCore

/// A browser asking for a path the app does not have gets a page (404) that says so and leads
/// home, in its language; scripts and the API keep the JSON error. Its style and icon are files
/// (the page's policy allows no inline style), so the console stays quiet.
enum NotFoundPage {
    static func wanted(_ request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get, !path.hasPrefix("/api/"), !path.hasPrefix("/auth/"), path != "/ws" else { return false }
        return request.headers[.accept]?.contains("text/html") == true
    }

    static func response(_ request: Request) -> Response {
        let language = LanguagePreference.of(request)
        let title = UIText.notFoundTitle(language)
        let body = UIText.notFoundBody(language)
        let home = UIText.notFoundHome(language)
        let html = """
            <!doctype html><html lang="\(language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>404 · \(title)</title>
            <link rel="icon" href="/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="/notfound.css">
            </head><body><main><h1>404 · \(title)</h1><p>\(body)</p><p><a href="/">\(home)</a></p></main></body></html>
            """
        return Response(
            status: .notFound,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}
