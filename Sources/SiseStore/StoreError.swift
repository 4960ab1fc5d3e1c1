import Foundation
import SiseCore

/// What can go wrong storing user data, worded for people in one place.
public enum StoreError: Error, Sendable, Equatable {
    /// The database file could not be opened or migrated.
    case unavailable(path: String, reason: String)
    /// A favorite must be an Upbit market (`KRW-BTC`) or a CoinGecko id (`bitcoin`).
    case invalidItem(String)
    /// A write or read failed.
    case failed(String)
    /// The owner already has the most favorites allowed.
    case tooMany(limit: Int)

    /// One line for a person, in their language.
    public func message(_ language: Language) -> String {
        let ko = language == .ko
        switch self {
        case .unavailable(let path, let reason):
            return ko ? "\(path)의 데이터베이스를 사용할 수 없습니다: \(reason)" : "the database at \(path) cannot be used: \(reason)"
        case .invalidItem(let item):
            return ko ? "'\(item.prefix(40))'은(는) 마켓 코드나 코인 ID가 아닙니다" : "'\(item.prefix(40))' is not a market code or a coin id"
        case .tooMany(let limit):
            return ko ? "관심 종목은 최대 \(limit)개입니다. 먼저 하나를 지우세요" : "at most \(limit) favorites; remove one first"
        case .failed(let reason):
            return ko ? "데이터베이스 오류: \(reason)" : "the database failed: \(reason)"
        }
    }

    /// The English line (the API's error messages are English).
    public var message: String { message(.en) }
}
