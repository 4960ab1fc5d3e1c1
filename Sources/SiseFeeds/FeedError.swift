import Foundation
import SiseCore

/// Everything that can go wrong talking to an upstream exchange, typed so each face can show a
/// clear message (Korean and English) and scripts can tell the cases apart.
public enum FeedError: Error, Sendable, Equatable {
    /// 400: the exchange rejected the parameters. `name` and `message` are the exchange's own.
    case badRequest(name: String, message: String)
    /// 401: credentials missing or wrong.
    case unauthorized(name: String, message: String)
    /// 403: forbidden.
    case forbidden(name: String, message: String)
    /// 404: unknown market or route.
    case notFound(name: String, message: String)
    /// 418: the IP is temporarily blocked for ignoring 429s. Never retried.
    case blocked(retryAfter: Duration?)
    /// 429: too many requests; the wait before the group may call again.
    case rateLimited(retryAfter: Duration)
    /// 5xx.
    case server(status: Int)
    /// Any other unexpected status.
    case unexpectedStatus(status: Int, message: String)
    /// No answer in time.
    case timeout
    /// The host could not be reached (refused, DNS, reset).
    case unreachable(host: String, reason: String)
    /// The body was not what the API documents.
    case malformedPayload(context: String)

    /// The HTTP status behind the error, when there is one.
    public var status: Int? {
        switch self {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .blocked: 418
        case .rateLimited: 429
        case .server(let status), .unexpectedStatus(let status, _): status
        case .timeout, .unreachable, .malformedPayload: nil
        }
    }

    /// One line for a person, in their language.
    public func message(_ language: Language) -> String {
        let l = language
        switch self {
        case .badRequest(_, let message): return UIText.feedBadRequest(l, ["message": message])
        case .unauthorized(_, let message): return UIText.feedUnauthorized(l, ["message": message])
        case .forbidden(_, let message): return UIText.feedForbidden(l, ["message": message])
        case .notFound(_, let message): return UIText.feedNotFound(l, ["message": message])
        case .blocked(let wait):
            return UIText.feedBlocked(l) + (wait.map { UIText.feedRetryIn(l, ["seconds": Self.seconds($0)]) } ?? "")
        case .rateLimited(let wait): return UIText.feedRateLimited(l, ["seconds": Self.seconds(wait)])
        case .server(let status): return UIText.feedServer(l, ["status": String(status)])
        case .unexpectedStatus(let status, let message): return UIText.feedUnexpected(l, ["status": String(status), "message": message])
        case .timeout: return UIText.feedTimeout(l)
        case .unreachable(let host, _): return UIText.feedUnreachable(l, ["host": host])
        case .malformedPayload(let context): return UIText.feedMalformed(l, ["context": context])
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
    }
}
