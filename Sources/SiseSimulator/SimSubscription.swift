import Foundation

/// A parsed Upbit WebSocket request: `[{"ticket":…},{"type":"ticker","codes":[…]},{"format":…}]`,
/// with `orderbook` (codes may name a depth, `KRW-BTC.15`) and `trade` objects beside or instead
/// of the ticker's.
struct SimSubscription: Sendable, Equatable {
    enum Format: String, Sendable {
        case `default` = "DEFAULT"
        case simple = "SIMPLE"
    }

    /// Ticker codes.
    var codes: [String]
    var bookCodes: [String] = []
    var tradeCodes: [String] = []
    var format: Format
    var onlySnapshot: Bool
    var onlyRealtime: Bool

    /// Upbit's error frame names for a bad request.
    struct Failure: Error, Equatable {
        let name: String
        let message: String

        static let noTicket = Failure(name: "NO_TICKET", message: "티켓이 존재하지 않거나, 유효하지 않습니다.")
        static let wrongFormat = Failure(name: "WRONG_FORMAT", message: "Format 이 맞지 않습니다.")
        static let noType = Failure(name: "NO_TYPE", message: "타입이 존재하지 않습니다.")
        static let noCodes = Failure(name: "NO_CODES", message: "코드가 존재하지 않습니다.")
        /// Over 5 requests a second or 100 a minute on one connection (the name is the simulator's).
        static let tooManyRequests = Failure(name: "TOO_MANY_REQUESTS", message: "요청 수 제한을 초과했습니다.")
        static func invalidType(_ type: String) -> Failure {
            Failure(name: "INVALID_PARAM", message: "\(type) 은 지원하지 않는 타입입니다.")
        }
    }

    static let supportedTypes: Set<String> = ["ticker", "trade", "orderbook"]

    /// Parses a request; unknown or lower-case codes are kept out silently, as Upbit does.
    static func parse(_ data: Data, listed: (String) -> Bool) throws(Failure) -> SimSubscription {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any] else { throw .wrongFormat }
        let objects = array.compactMap { $0 as? [String: Any] }
        guard objects.count == array.count, let first = objects.first else { throw .wrongFormat }
        guard let ticket = first["ticket"] as? String, !ticket.isEmpty else { throw .noTicket }
        var format = Format.default
        var subscription: SimSubscription?
        func only(_ codes: [String]) -> [String] { codes.filter { $0 == $0.uppercased() && listed($0) } }
        for object in objects.dropFirst() {
            if let name = object["format"] {
                guard let text = name as? String, let parsed = Format(rawValue: text) else { throw .wrongFormat }
                format = parsed
                continue
            }
            guard let type = object["type"] as? String else { throw .noType }
            guard supportedTypes.contains(type) else { throw .invalidType(type) }
            guard let codes = object["codes"] as? [String], !codes.isEmpty else { throw .noCodes }
            var next = subscription ?? SimSubscription(codes: [], format: .default, onlySnapshot: false, onlyRealtime: false)
            switch type {
            case "ticker":
                next.codes = only(codes)
                next.onlySnapshot = (object["is_only_snapshot"] ?? object["isOnlySnapshot"]) as? Bool ?? false
                next.onlyRealtime = (object["is_only_realtime"] ?? object["isOnlyRealtime"]) as? Bool ?? false
            case "orderbook": next.bookCodes = only(codes.map { String($0.split(separator: ".").first ?? "") })
            default: next.tradeCodes = only(codes)
            }
            subscription = next
        }
        guard var result = subscription else { throw .noType }
        result.format = format
        return result
    }
}
