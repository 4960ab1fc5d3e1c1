import Foundation
import SiseCore

extension KeyedDecodingContainer {
    /// A figure an exchange sends as a decimal string (`"0.00512"`), read exactly; anything that
    /// is not a plain decimal is refused, never read as 0.
    func exactDecimal(forKey key: Key) throws -> Decimal {
        let text = try decode(String.self, forKey: key)
        guard let value = PortfolioLedger.decimal(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not a plain decimal: \(text.prefix(40))")
        }
        return value
    }

    /// The same for a field an exchange may leave out or send as `null` (nil then).
    func exactDecimalIfPresent(forKey key: Key) throws -> Decimal? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try exactDecimal(forKey: key)
    }
}
