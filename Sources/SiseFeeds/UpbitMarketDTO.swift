import Foundation
import SiseCore

/// A row of `GET /v1/market/all?is_details=true`.
struct UpbitMarketDTO: Decodable {
    struct MarketEvent: Decodable {
        var warning: Bool?
        var caution: [String: Bool]?
    }

    var market: String
    var korean_name: String?
    var english_name: String?
    var market_event: MarketEvent?
    /// Legacy (`NONE`/`CAUTION`); `CAUTION` means what `market_event.warning` means today.
    var market_warning: String?

    func toMarket() throws -> Market {
        guard let id = MarketID(market) else {
            throw FeedError.malformedPayload(context: "market/all: bad market code \(market)")
        }
        let warning = market_event?.warning ?? (market_warning?.uppercased() == "CAUTION")
        let cautions = (market_event?.caution ?? [:]).filter(\.value).map(\.key).sorted()
        return Market(
            id: id,
            koreanName: korean_name ?? "",
            englishName: english_name ?? "",
            warning: warning,
            cautions: cautions
        )
    }
}
