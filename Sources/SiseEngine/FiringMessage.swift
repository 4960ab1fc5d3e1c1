import Foundation
import SiseCore

/// What a firing says outside the app, in one language: a push notification's title, body and
/// the page it opens, a chat's one line, and the push message's JSON (the firing's keys plus
/// `title`, `body`, `url`).
public struct FiringMessage: Sendable, Equatable {
    public let title: String
    public let body: String
    /// The coin's page, relative to the site: `/coin/KRW-BTC?exchange=upbit`.
    public let url: String
    public let line: String
    public let pushJSON: String

    /// From a queued firing (`webhook_job.body`); nil for a body that is not one.
    public init?(firingJSON: String, language code: String) {
        guard let firing = try? JSONDecoder().decode(AlertFiring.self, from: Data(firingJSON.utf8)) else { return nil }
        // The whole portfolio's P&L line names no market: its value stands for the price.
        let market = MarketID(firing.market)
        guard market != nil || firing.market == AlertTarget.portfolio.rawValue else { return nil }
        let language = Language(rawValue: code) ?? .ko
        let exchange = Exchange(rawValue: firing.exchange)
        let said = firing.message[language.rawValue] ?? firing.message.values.first ?? "\(firing.market) \(firing.rule)"
        let price = MarketFormatter(language: language).price(firing.price, quote: market?.quote ?? "KRW")
        if let market {
            title = UIText.alertPushTitle(language, ["exchange": exchange?.displayName ?? firing.exchange, "market": market.code])
            url = "/coin/\(market.code)?exchange=\(exchange?.rawValue ?? "upbit")"
        } else {
            title = UIText.alertTargetPortfolio(language)
            url = "/portfolio"
        }
        body = UIText.alertPushBody(language, ["rule": said, "price": price])
        line = UIText.alertChatLine(language, ["rule": said, "price": price, "time": KSTText.clock(firing.at)])
        let keys =
            #""id":\#(JSONString.quoted(firing.id)),"alertId":\#(JSONString.quoted(firing.alertId)),"exchange":\#(JSONString.quoted(firing.exchange)),"market":\#(JSONString.quoted(firing.market)),"rule":\#(JSONString.quoted(firing.rule)),"value":\#(JSONString.quoted(firing.value)),"price":\#(firing.price.isFinite ? String(firing.price) : "0"),"at":\#(firing.at)"#
        pushJSON =
            "{" + keys
            + #","title":\#(JSONString.quoted(title)),"body":\#(JSONString.quoted(body)),"url":\#(JSONString.quoted(url)),"lang":"\#(language.rawValue)"}"#
    }
}
