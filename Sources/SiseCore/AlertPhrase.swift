import Foundation

/// An alert typed as one line — the TUI's `a` prompt, in the CLI's words: `above 150000000`,
/// `move 5 10` (percent, window), `premium-above 3`, `volume-spike 3 5`, `indicator rsiBelow 15m`,
/// `strength-above 150`, `pnl-below -10`, `pnl-amount-below -1000000`; led by `favorites`,
/// `holdings` or `portfolio` for a rule on that list instead of the market on screen; `repeat`
/// anywhere makes it recurring. Checked afterwards by `AlertInput`, as every face is.
public enum AlertPhrase {
    /// The CLI's and the prompt's names of the kinds (`premium-above`), by the API's (`premiumAbove`).
    public static let kinds: [String: AlertKind] = [
        "above": .above, "below": .below, "move": .move, "premium-above": .premiumAbove, "premium-below": .premiumBelow,
        "volume-spike": .volumeSpike, "indicator": .indicator, "strength-above": .strengthAbove, "strength-below": .strengthBelow,
        "pnl-above": .pnlAbove, "pnl-below": .pnlBelow, "pnl-amount-above": .pnlAmountAbove, "pnl-amount-below": .pnlAmountBelow,
    ]

    /// The API's type for a CLI name (`premium-above` → `premiumAbove`); other text as it came.
    public static func type(_ name: String) -> String { kinds[name]?.rawValue ?? name }

    /// The longest line the prompt takes.
    public static let maxLength = 100

    /// The input `text` means for `market` (the one on screen; nil: none) on `exchange`.
    public static func input(_ text: String, market: MarketID?, exchange: Exchange) throws(AlertInput.Failure) -> AlertInput {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard text.count <= maxLength, !words.isEmpty else { throw AlertInput.Failure(.alertBadType) }
        let recurring = words.contains("repeat") || words.contains("반복")
        words.removeAll { $0 == "repeat" || $0 == "반복" }
        var target = market?.code
        if let first = words.first, let named = AlertTarget(name: first) {
            target = named.rawValue
            words.removeFirst()
        }
        guard let marketText = target else { throw AlertInput.Failure(.inputBadMarket) }
        guard words.count >= 2, let kind = kinds[words[0].lowercased()] ?? AlertKind(rawValue: words[0]) else {
            throw AlertInput.Failure(.alertBadType)
        }
        let value = words[1]
        let extra = words.count > 2 ? words[2] : nil
        var input = AlertInput(exchange: exchange.rawValue, market: marketText, type: kind.rawValue, recurring: recurring)
        switch kind {
        case .above, .below: input.price = value
        case .volumeSpike:
            input.factor = value
            input.windowMinutes = extra.flatMap { Int($0) }
        case .indicator:
            input.indicator = value
            input.interval = extra
        case .pnlAmountAbove, .pnlAmountBelow: input.amount = value
        case .move:
            input.percent = value
            input.windowMinutes = extra.flatMap { Int($0) }
        case .premiumAbove, .premiumBelow, .strengthAbove, .strengthBelow, .pnlAbove, .pnlBelow: input.percent = value
        }
        // A window that is not a whole number is refused as the window, not dropped.
        if let extra, kind == .move || kind == .volumeSpike, Int(extra) == nil {
            throw AlertInput.Failure(kind == .move ? .alertBadWindow : .alertBadSpikeWindow)
        }
        return input
    }
}
