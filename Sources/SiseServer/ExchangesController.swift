import Foundation
import Hummingbird
import SiseCore
import SiseFeeds

/// `GET /api/exchanges`: the exchanges this server shows, in the order its switch lists them —
/// each with its id, its name and its quote markets, the default one marked (its favorites and
/// routes need no `exchange`). The page's exchange switch, the compare board's columns and the
/// forms' exchange choices are rendered from the same list (`ExchangePage`).
struct ExchangesController {
    let exchanges: [Exchange]

    struct Entry: Encodable {
        let id: String
        let name: String
        let quotes: [String]
        let `default`: Bool
        /// Sise reads a person's account here with a read-only key (`/api/exchange-keys`).
        let readsAccounts: Bool
    }

    var entries: [Entry] {
        exchanges.map {
            Entry(
                id: $0.rawValue,
                name: $0.displayName,
                quotes: $0.quotes.map(\.rawValue),
                default: $0 == .default,
                readsAccounts: ExchangeRegistry.spec($0).readsAccounts
            )
        }
    }

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        let entries = entries
        router.get("/api/exchanges") { _, _ in JSONText.response(entries) }
    }
}

/// The page's exchange lists, written into `index.html` once at start-up from the exchanges the
/// server shows, so the page holds no list of its own and shows them at first paint.
enum ExchangePage {
    /// `<!--exchange-switch-->`, `<!--exchange-columns-->`, `<!--exchange-options-->`,
    /// `<!--quote-switch-->`, `<!--account-exchange-options-->` (those whose accounts Sise reads),
    /// and the premium matrix's `<!--matrix-columns-->` and
    /// `<!--venue-options-->` (the global venues) replaced.
    static func render(_ page: String, exchanges: [Exchange]) -> String {
        let switchButtons = exchanges.map { exchange in
            #"<button type="button" data-exchange="\#(exchange.rawValue)" aria-pressed="\#(exchange == .default)">\#(exchange.displayName)</button>"#
        }.joined(separator: "\n        ")
        let columns = exchanges.map { #"<th class="num" data-venue="\#($0.rawValue)">\#($0.displayName)</th>"# }.joined(separator: "\n            ")
        let options = exchanges.map { #"<option value="\#($0.rawValue)">\#($0.displayName)</option>"# }.joined()
        let accountOptions = exchanges.filter { ExchangeRegistry.spec($0).readsAccounts }
            .map { #"<option value="\#($0.rawValue)">\#($0.displayName)</option>"# }.joined()
        let matrixColumns = exchanges.map { exchange in
            #"<th class="num" data-matrix-exchange="\#(exchange.rawValue)" aria-sort="none"><button type="button"><span class="label">\#(exchange.displayName)</span><span class="arrow"></span></button></th>"#
        }.joined(separator: "\n            ")
        let venues = GlobalVenue.allCases.map { #"<option value="\#($0.rawValue)">\#($0.displayName)</option>"# }.joined()
        let quotes = QuoteCurrency.allCases.map { quote in
            #"<button type="button" data-quote="\#(quote.rawValue)" aria-pressed="\#(quote == .krw)">\#(quote.rawValue)</button>"#
        }.joined(separator: "\n          ")
        return TextTemplate.fill(
            page,
            [
                "<!--exchange-switch-->": switchButtons, "<!--quote-switch-->": quotes, "<!--exchange-columns-->": columns,
                "<!--exchange-options-->": options, "<!--account-exchange-options-->": accountOptions,
                "<!--matrix-columns-->": matrixColumns, "<!--venue-options-->": venues,
                "data-default-exchange=\"\"": "data-default-exchange=\"\(Exchange.default.rawValue)\"",
            ]
        )
    }
}
