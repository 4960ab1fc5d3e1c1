import Foundation
import Hummingbird
import SiseCore

/// Refuses request paths no page of Sise ever asks for, before routes and static files see
/// them: NUL or other control characters (raw or percent-encoded — `/app.js%00.html` must not
/// be served as HTML), backslashes, and a leading `//` (which file serving would turn into a
/// redirect to another host's path). A path with an empty segment — a trailing slash, `a//b` —
/// names nothing: routes match exactly (the router alone would take `/metrics/` and
/// `/metrics//` for `/metrics`, past a proxy that blocks only the exact path). A query's names
/// and values, percent-decoded, hold no control character (`ControlCharacters`: 400
/// `control_character`), before any route reads one; an API call's `lang` is `ko` or `en`, and a
/// parameter it names is not given empty.
struct PathGuardMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isAcceptable(request.uri.path) else {
            throw APIError(status: .badRequest, code: "bad_path", RefusalText.badPath)
        }
        guard Self.isExact(request.uri.path) else { throw HTTPError(.notFound) }
        if request.uri.query != nil, let (name, scalar) = Self.firstControl(inQuery: request.uri.queryParameters) {
            throw APIError.controlCharacter(field: name, scalar)
        }
        // An API answer's `lang` is one of the two the OpenAPI document lists (a page's address
        // may carry anything: the page reads what it knows).
        if request.uri.path.hasPrefix("/api/"), request.uri.query != nil {
            let parameters = request.uri.queryParameters
            if let lang = parameters["lang"], Language(rawValue: String(lang)) == nil {
                throw APIError.badParameter(.language, .oneOf(Language.allCases.map(\.rawValue)))
            }
            // A parameter the API reads, given empty (`exchange=`), is refused rather than read as
            // left out: every pattern and list `/openapi.yaml` names has at least one character.
            // Only a search may be empty (nothing typed yet).
            for (name, value) in parameters where value.isEmpty {
                if let parameter = ParameterRefusal.Parameter(rawValue: String(name)), parameter != .search {
                    throw APIError.badParameter(parameter, .notEmpty)
                }
            }
        }
        return try await next(request, context)
    }

    /// `/`, or segments none of which is empty.
    static func isExact(_ rawPath: String) -> Bool {
        rawPath == "/" || !rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty)
    }

    /// The first query parameter (its decoded name) holding a control character, and the character.
    static func firstControl(inQuery parameters: some Sequence<(key: Substring, value: Substring)>) -> (String, Unicode.Scalar)? {
        for (rawName, value) in parameters {
            let name = rawName.removingPercentEncoding ?? String(rawName)
            if let scalar = ControlCharacters.first(in: name) ?? ControlCharacters.first(in: value) { return (name, scalar) }
        }
        return nil
    }

    static func isAcceptable(_ rawPath: String) -> Bool {
        guard rawPath.hasPrefix("/"), !rawPath.hasPrefix("//"), rawPath.utf8.count <= 2_048 else { return false }
        let decoded = rawPath.removingPercentEncoding ?? rawPath
        guard !decoded.hasPrefix("//") else { return false }
        return !decoded.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }
    }
}
