import SiseCore

/// Connectivity in words and tone, from the one table, for every face.
extension Connectivity {
    public var tone: Tone {
        switch self {
        case .live: .live
        case .connecting, .delayed, .idle: .warning
        case .offline: .stale
        }
    }

    /// The short label of a status bar: 연결 중 / 실시간 / 지연 / 오프라인 / 대기.
    public func label(_ language: Language) -> String {
        switch self {
        case .connecting: UIText.connecting(language)
        case .live: UIText.live(language)
        case .delayed: UIText.delayed(language)
        case .offline: UIText.offline(language)
        case .idle: UIText.idle(language)
        }
    }

    /// The label with what it means, for a stream of lines (`sise watch`).
    public func explained(_ language: Language) -> String {
        switch self {
        case .delayed: UIText.delayedPolling(language)
        case .idle: UIText.idleNoViewers(language)
        case .connecting, .live, .offline: label(language)
        }
    }
}

extension ConnectivityStatus {
    /// `지연 (REST 조회 중): 요청 한도를 넘었습니다 …` — the state and, when not live, why.
    public func message(_ language: Language) -> String {
        let label = state.explained(language)
        guard state != .live, let error else { return label }
        return "\(label): \(error.message(language))"
    }
}
