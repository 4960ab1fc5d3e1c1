import Foundation
import Hummingbird
import SiseCore

/// `GET /api/premium/executable?exchange=&symbol=BTC&venue=binance&amount=1000000`: what the
/// amount of won makes each way between the exchange and the venue, walked through the live
/// books, after the sending side's withdrawal fee — or which wallet is shut, which book is thin.
struct ExecutablePremiumController {
    let context: ServerContext

    static let amounts = ExecutablePremium.amounts

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/premium/executable", use: executable)
    }

    @Sendable func executable(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let exchange = try ServerContext.exchange(request)
        let venue = try ServerContext.venue(request)
        guard let symbol = query["symbol"].map({ String($0).uppercased() }), CoinTicker.isValid(symbol), symbol != "KRW" else {
            throw APIError.badParameter(.symbol, .symbolList(1))
        }
        var amount = 1_000_000.0
        if let text = query["amount"].map(String.init) {
            // Whole won, as the refusal says (`정수`): never 0, a fraction, hex or an exponent.
            guard let value = TypedNumber.whole(text, in: Self.amounts) else {
                throw APIError.badParameter(.amount, .between(Self.amounts.lowerBound, Self.amounts.upperBound))
            }
            amount = Double(value)
        }
        guard let market = MarketID("KRW-" + symbol) else { throw APIError.badParameter(.symbol, .symbolList(1)) }
        try context.requireListed(market, on: exchange)
        guard let reader = context.executable else { throw APIError.notFound(.missingExchange, ["name": venue.displayName]) }
        let table = await reader.read(exchange: exchange, symbol: symbol, venue: venue, amount: amount, language: LanguagePreference.of(request))
        return JSONText.response(table)
    }
}
