/// Which changes an owner is told of (변동 알림), through every destination alerts reach: a
/// starred or held coin's wallet suspended or reopened (`wallets`); a starred or held coin flagged,
/// cleared or delisted (`flags`); any coin newly listed on any exchange (`listings`).
public struct ChangeAlerts: Codable, Equatable, Sendable {
    public enum Topic: String, Codable, CaseIterable, Sendable {
        case wallets, flags, listings

        /// What it tells of, in words.
        public func text(_ language: Language) -> String {
            switch self {
            case .wallets: EventText.eventAlertWallet(language)
            case .flags: EventText.eventAlertFlag(language)
            case .listings: EventText.eventAlertListing(language)
            }
        }
    }

    public var wallets: Bool
    public var flags: Bool
    public var listings: Bool

    public init(wallets: Bool = false, flags: Bool = false, listings: Bool = false) {
        self.wallets = wallets
        self.flags = flags
        self.listings = listings
    }

    public func wants(_ topic: Topic) -> Bool {
        switch topic {
        case .wallets: wallets
        case .flags: flags
        case .listings: listings
        }
    }

    /// The topic an event belongs to, and whether only the owners who star or hold the coin (on
    /// that exchange) are told.
    public static func topic(of kind: MarketEvent.Kind) -> (topic: Topic, ownCoinsOnly: Bool) {
        switch kind {
        case .listed: (.listings, false)
        case .delisted, .flagged, .cleared: (.flags, true)
        case .depositSuspended, .depositReopened, .withdrawSuspended, .withdrawReopened: (.wallets, true)
        }
    }
}

extension AlertFiring {
    /// A change told to `owner`: the event in words on every destination (`Upbit XRP 입금 중단
    /// (XRP)`), its kind as the rule, the price then. One id per event and owner, so it is told once.
    public init(event: MarketEvent, owner: String) {
        let market = event.kind.aspect == .listing ? "\(event.scope)-\(event.symbol)" : "KRW-\(event.symbol)"
        self.init(
            id: "change-\(event.id)-\(owner)",
            alertId: "changes:" + ChangeAlerts.topic(of: event.kind).topic.rawValue,
            owner: owner,
            exchange: event.exchange.rawValue,
            market: market,
            rule: event.kind.rawValue,
            value: event.scope,
            price: event.price ?? 0,
            at: event.at,
            message: Dictionary(
                uniqueKeysWithValues: Language.allCases.map {
                    ($0.rawValue, UIText.alertFired($0, ["exchange": event.exchange.displayName, "market": event.symbol, "rule": event.text($0)]))
                }
            )
        )
    }
}
