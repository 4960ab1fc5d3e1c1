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
        let ko = language == .ko
        switch self {
        case .badRequest(_, let message):
            return ko ? "잘못된 요청입니다 (400): \(message)" : "Bad request (400): \(message)"
        case .unauthorized(_, let message):
            return ko ? "인증에 실패했습니다 (401): \(message)" : "Not authorized (401): \(message)"
        case .forbidden(_, let message):
            return ko ? "접근이 거부되었습니다 (403): \(message)" : "Forbidden (403): \(message)"
        case .notFound(_, let message):
            return ko ? "찾을 수 없습니다 (404): \(message)" : "Not found (404): \(message)"
        case .blocked(let wait):
            let after = wait.map { ko ? " \(Self.seconds($0))초 후에 다시 시도하세요." : " Try again in \(Self.seconds($0)) s." } ?? ""
            return (ko ? "요청이 너무 많아 거래소가 접속을 일시 차단했습니다 (418)." : "The exchange temporarily blocked this IP for too many requests (418).") + after
        case .rateLimited(let wait):
            return ko ? "요청 한도를 넘었습니다 (429). \(Self.seconds(wait))초 후에 다시 시도합니다."
                      : "Rate limited (429). Retrying in \(Self.seconds(wait)) s."
        case .server(let status):
            return ko ? "거래소 서버 오류입니다 (\(status)). 잠시 후 다시 시도하세요."
                      : "The exchange had a server error (\(status)). Try again shortly."
        case .unexpectedStatus(let status, let message):
            return ko ? "예상하지 못한 응답입니다 (\(status)): \(message)" : "Unexpected response (\(status)): \(message)"
        case .timeout:
            return ko ? "거래소 응답 시간이 초과되었습니다." : "The exchange did not answer in time."
        case .unreachable(let host, _):
            return ko ? "\(host)에 연결할 수 없습니다. 네트워크를 확인하세요."
                      : "Cannot reach \(host). Check the network."
        case .malformedPayload(let context):
            return ko ? "거래소 응답을 해석할 수 없습니다: \(context)" : "Could not read the exchange's answer: \(context)"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let s = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
    }
}
