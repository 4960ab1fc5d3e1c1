import Foundation

/// Direction of the price against the previous close, as Upbit reports it.
public enum PriceChange: String, Sendable, Codable, Hashable {
    case rise = "RISE"
    case even = "EVEN"
    case fall = "FALL"

    /// The direction implied by a signed amount.
    public init(signed value: Double) {
        self = value > 0 ? .rise : (value < 0 ? .fall : .even)
    }
}
