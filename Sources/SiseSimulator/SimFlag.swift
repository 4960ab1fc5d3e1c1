/// A market's designation as the simulated venue publishes it: 유의 and the caution reasons
/// (Upbit's five keys; the other venues' lists are written from them).
struct SimFlag: Sendable, Codable, Equatable {
    var warning: Bool
    var cautions: [String]

    var isSet: Bool { warning || !cautions.isEmpty }
}
