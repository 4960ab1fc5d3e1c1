import Foundation
import HTTPTypes
import Hummingbird
import SiseCore
import SiseEngine
import SiseStore

/// Every error the API answers with, mapped to HTTP in one place:
/// `{"error":{"code":"…","message":"…"}}`, plus `"field"` when the refusal is about one field of
/// the body (a form marks it).
public struct APIError: Error, Sendable {
    public let status: HTTPResponse.Status
    public let code: String
    /// Seconds for a `Retry-After` header, when the client should come back.
    public var retryAfter: Int? = nil
    /// The body's field the error is about (`price`, `market`…).
    public var field: String? = nil
    /// Headers the answer carries besides the usual (a 405's `Allow`, a 426's `Upgrade`).
    public var headers: HTTPFields = [:]
    /// The words in either language: every refusal is worded by a table (`RefusalText`, `UIText`)
    /// and answered in the request's language. There is no other way to make one.
    private let worded: @Sendable (Language) -> String

    /// A refusal worded in the reader's language.
    init(
        status: HTTPResponse.Status,
        code: String,
        field: String? = nil,
        retryAfter: Int? = nil,
        worded: @escaping @Sendable (Language) -> String
    ) {
        self.status = status
        self.code = code
        self.field = field
        self.retryAfter = retryAfter
        self.worded = worded
    }

    /// A refusal worded by one entry of a table.
    init<Table: WordTable>(
        status: HTTPResponse.Status,
        code: String,
        _ text: Table,
        _ values: [String: String] = [:],
        field: String? = nil,
        retryAfter: Int? = nil
    ) {
        self.init(status: status, code: code, field: field, retryAfter: retryAfter) { text($0, values) }
    }

    /// The message as the request's reader reads it.
    public func message(_ language: Language) -> String { worded(language) }

    /// The English message (logs, tests).
    public var message: String { worded(.en) }

    /// A parameter of the query refused: what it is called and what it must be.
    static func badParameter(_ parameter: ParameterRefusal.Parameter, _ rule: ParameterRefusal.Rule) -> APIError {
        refused(ParameterRefusal(parameter, rule))
    }

    static func refused(_ refusal: ParameterRefusal) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter") { refusal.message($0) }
    }

    /// A field of the body refused: the words name it, and so does `field` (a form marks it).
    static func badField(_ parameter: ParameterRefusal.Parameter, _ rule: ParameterRefusal.Rule) -> APIError {
        let refusal = ParameterRefusal(parameter, rule)
        return APIError(status: .badRequest, code: "bad_parameter", field: parameter.rawValue) { refusal.message($0) }
    }

    /// A market refused by the one listing rule (`MarketListing`): 404 when the exchange does not
    /// list it, 400 when it was asked for wrongly (a quote the exchange lacks, not a market code).
    static func listing(_ problem: ListingProblem) -> APIError {
        APIError(
            status: problem.isUnlisted ? .notFound : .badRequest,
            code: problem.isUnlisted ? "not_found" : "bad_parameter",
            field: "market"
        ) { problem.message($0) }
    }

    /// An alert or a transaction refused by the core's checks, worded for the reader, naming its field.
    /// The message is the reader's words alone: no field id or prefix before it (`field` names the field).
    static func refused(_ failure: PortfolioInput.Failure) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter", failure.text, failure.values, field: failure.field)
    }

    /// One transaction of an import refused: which one, and why.
    static func refused(_ failure: PortfolioInput.Failure, item: Int) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter", field: failure.field) {
            UIText.importItem($0, ["item": String(item), "reason": failure.message($0)])
        }
    }

    /// A CSV line refused: its number and why.
    static func refused(_ problem: PortfolioCSV.Problem) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter") { problem.message($0) }
    }

    /// A string of the body or the query holding a control character (`ControlCharacters`): the
    /// field by its key, the character by its code point — never the character itself.
    static func controlCharacter(field: String?, _ scalar: Unicode.Scalar) -> APIError {
        let character = ControlCharacters.name(scalar)
        guard let field else { return APIError(status: .badRequest, code: "control_character", RefusalText.controlInBody, ["character": character]) }
        let shown = clip(field.unicodeScalars.filter { !ControlCharacters.isControl($0) }.map(String.init).joined(), to: 40)
        return APIError(
            status: .badRequest,
            code: "control_character",
            RefusalText.controlInField,
            ["field": shown, "character": character],
            field: shown
        )
    }

    /// Something the request names does not exist (or is not the asker's).
    static func notFound(_ text: RefusalText, _ values: [String: String] = [:]) -> APIError {
        APIError(status: .notFound, code: "not_found", text, values)
    }

    /// Text that may echo a request is cut short: an error never hands back kilobytes of input.
    static func clip(_ text: String, to limit: Int = 120) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// An exchange's board has no data yet (just started, upstream not answered): try again shortly.
    static func loading(_ exchange: Exchange, retryAfter seconds: Int) -> APIError {
        APIError(
            status: .serviceUnavailable,
            code: "unavailable",
            RefusalText.boardLoading,
            ["exchange": exchange.displayName, "seconds": String(seconds)],
            retryAfter: seconds
        )
    }

    public static let csrf = APIError(status: .forbidden, code: "csrf", RefusalText.securityToken)
    public static let crossOrigin = APIError(status: .forbidden, code: "cross_origin", RefusalText.crossSite)
    public static let tooLarge = APIError(status: .contentTooLarge, code: "too_large", UIText.requestTooLarge)
    static let internalFailure = APIError(status: .internalServerError, code: "internal", RefusalText.internalError)
}

/// Turns any error a route throws into the JSON error shape; never leaks `"\(error)"`.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let language = LanguagePreference.of(request)
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return Self.response(error, language)
        } catch let error as StoreError {
            return Self.response(Self.refusal(error), language)
        } catch let limited as CoinInfoService.ClientLimited {
            return Self.response(
                APIError(
                    status: .tooManyRequests,
                    code: "client_limit",
                    RefusalText.tooManyLookups,
                    ["seconds": String(limited.retryAfter)],
                    retryAfter: limited.retryAfter
                ),
                language
            )
        } catch let busy as CandleCache.Busy {
            return Self.response(
                APIError(
                    status: .serviceUnavailable,
                    code: "busy",
                    RefusalText.chartsBusy,
                    ["seconds": String(busy.retryAfter)],
                    retryAfter: busy.retryAfter
                ),
                language
            )
        } catch let error as HTTPError {
            if error.status == .notFound, NotFoundPage.wanted(request) { return NotFoundPage.response(request) }
            return Self.response(Self.refusal(error.status), language)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(error)"])
            return Self.response(.internalFailure, language)
        }
    }

    /// A store's refusal in its own words; a store that cannot answer says only that.
    static func refusal(_ error: StoreError) -> APIError {
        let worded: @Sendable (Language) -> String = { error.message($0) }
        return switch error {
        case .invalidItem: APIError(status: .badRequest, code: "bad_parameter", worded: worded)
        case .tooMany: APIError(status: .conflict, code: "favorites_full", worded: worded)
        case .taken: APIError(status: .conflict, code: "taken", worded: worded)
        case .tooManyRecords: APIError(status: .conflict, code: "too_many", worded: worded)
        case .pushEndpointTaken: APIError(status: .conflict, code: "taken", field: "endpoint", worded: worded)
        case .ledger: APIError(status: .conflict, code: "ledger", worded: worded)
        default: APIError(status: .serviceUnavailable, code: "store_unavailable", RefusalText.storeBusy)
        }
    }

    /// A status the framework answered by itself (a route that does not exist, a body too large).
    static func refusal(_ status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: .notFound(.missingAddress)
        case .contentTooLarge: .tooLarge
        default: APIError(status: status, code: "http_\(status.code)", RefusalText.httpStatus, ["status": String(status.code)])
        }
    }

    static func response(_ error: APIError, _ language: Language) -> Response {
        let field = error.field.map { ",\"field\":" + JSONText.quote($0) } ?? ""
        let json = "{\"error\":{\"code\":" + JSONText.quote(error.code) + ",\"message\":" + JSONText.quote(error.message(language)) + field + "}}"
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        headers.append(contentsOf: error.headers)
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
