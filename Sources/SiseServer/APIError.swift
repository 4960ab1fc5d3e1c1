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
    public let message: String
    /// Seconds for a `Retry-After` header, when the client should come back.
    public var retryAfter: Int? = nil
    /// The body's field the error is about (`price`, `market`…).
    public var field: String? = nil
    /// Headers the answer carries besides the usual (a 405's `Allow`, a 426's `Upgrade`).
    public var headers: HTTPFields = [:]
    /// The words in any language, when the refusal is worded by the table (`UIText`): answered in
    /// the request's language (`message` is then the English line, for logs).
    var worded: (@Sendable (Language) -> String)? = nil

    /// The message as the request's reader reads it.
    public func message(_ language: Language) -> String {
        worded?(language) ?? message
    }

    public static func badParameter(_ name: String, _ detail: String) -> APIError {
        APIError(status: .badRequest, code: "bad_parameter", message: "\(clip(name)): \(clip(detail))")
    }

    /// A market refused by the one listing rule (`MarketListing`): 404 when the exchange does not
    /// list it, 400 when it was asked for wrongly (a quote the exchange lacks, not a market code).
    static func listing(_ problem: ListingProblem, _ language: Language) -> APIError {
        problem.isUnlisted ? APIError(status: .notFound, code: "not_found", message: problem.message(language), field: "market")
            : APIError(status: .badRequest, code: "bad_parameter", message: problem.message(language), field: "market")
    }

    /// A field of the body refused: the message names it, and so does `field`.
    static func badField(_ name: String, _ detail: String) -> APIError {
        var error = badParameter(name, detail)
        error.field = name
        return error
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

    public static func notFound(_ what: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: "\(clip(what)) not found")
    }

    /// Text that may echo a request is cut short: an error never hands back kilobytes of input.
    static func clip(_ text: String, to limit: Int = 120) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// The board has no data yet (just started, upstream not answered): try again shortly.
    public static func unavailable(_ what: String, retryAfter seconds: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: "unavailable", message: "\(what) is not loaded yet; retry in \(seconds) s",
                 retryAfter: seconds)
    }

    public static let csrf = APIError(status: .forbidden, code: "csrf",
                                      message: "missing or wrong X-CSRF-Token (send the sise_csrf cookie's value)")
    public static let crossOrigin = APIError(status: .forbidden, code: "cross_origin", message: "cross-site requests are refused")
    public static let tooLarge = APIError(status: .contentTooLarge, code: "too_large", .requestTooLarge)
}

extension APIError {
    /// A refusal worded in the reader's language.
    init(status: HTTPResponse.Status, code: String, field: String? = nil, worded: @escaping @Sendable (Language) -> String) {
        self.init(status: status, code: code, message: worded(.en), field: field, worded: worded)
    }

    /// A refusal worded by one entry of the table.
    init(status: HTTPResponse.Status, code: String, _ text: UIText, _ values: [String: String] = [:], field: String? = nil) {
        self.init(status: status, code: code, field: field) { text($0, values) }
    }
}

/// Turns any error a route throws into the JSON error shape; never leaks `"\(error)"`.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return Self.response(error, LanguagePreference.of(request))
        } catch let error as StoreError {
            let message = error.message(LanguagePreference.of(request))
            switch error {
            case .invalidItem: return Self.response(APIError(status: .badRequest, code: "bad_parameter", message: message))
            case .tooMany: return Self.response(APIError(status: .conflict, code: "favorites_full", message: message))
            case .taken: return Self.response(APIError(status: .conflict, code: "taken", message: message))
            case .tooManyRecords: return Self.response(APIError(status: .conflict, code: "too_many", message: message))
            case .pushEndpointTaken: return Self.response(APIError(status: .conflict, code: "taken", message: message, field: "endpoint"))
            case .ledger: return Self.response(APIError(status: .conflict, code: "ledger", message: message))
            default: return Self.response(APIError(status: .serviceUnavailable, code: "store_unavailable", message: "favorites are unavailable right now"))
            }
        } catch let limited as CoinInfoService.ClientLimited {
            return Self.response(APIError(status: .tooManyRequests, code: "client_limit",
                                          message: "too many new lookups from this client; retry in \(limited.retryAfter) s",
                                          retryAfter: limited.retryAfter))
        } catch let busy as CandleCache.Busy {
            return Self.response(APIError(status: .serviceUnavailable, code: "busy",
                                          message: "too many chart requests at once; retry in \(busy.retryAfter) s", retryAfter: busy.retryAfter))
        } catch let error as HTTPError {
            if error.status == .notFound, NotFoundPage.wanted(request) { return NotFoundPage.response(request) }
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            return Self.response(APIError(status: error.status, code: code, message: error.status.reasonPhrase))
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(error)"])
            return Self.response(APIError(status: .internalServerError, code: "internal", message: "internal error"))
        }
    }

    static func response(_ error: APIError, _ language: Language = .en) -> Response {
        let field = error.field.map { ",\"field\":" + JSONText.quote($0) } ?? ""
        let json = "{\"error\":{\"code\":" + JSONText.quote(error.code) + ",\"message\":" + JSONText.quote(error.message(language)) + field + "}}"
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        headers.append(contentsOf: error.headers)
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
