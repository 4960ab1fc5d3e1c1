import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise premium BTC --amount 1000000 [--exchange X] [--venue okx] [--json]`: the executable
/// premium once — the exchange's book and the venue's over REST, the one FX rule's rate, the
/// exchange's wallets asked once.
enum OneShotExecutable {
    static func run(
        _ symbol: String,
        amount: Double,
        exchange: Exchange,
        venue: GlobalVenue,
        premium: PremiumSettings,
        global: GlobalOptions,
        json: Bool
    ) async throws {
        let language = global.language
        let table = try await Root.oneShot(global.settings) { root in
            guard let market = MarketID("KRW-" + symbol) else {
                throw CLIFailure.usage("sise: " + ListingProblem.notAMarket(symbol).message(language))
            }
            let markets = try await root.api(exchange).markets()
            try listed(language) { () throws(ListingProblem) in try MarketListing(exchange: exchange, markets: markets).check(market) }
            let wallets = WalletService(
                feeds: root.walletFeeds().filter { $0.key == exchange },
                clock: root.clock,
                logger: Logger(label: "sise.premium")
            )
            await wallets.refresh()
            let plan = FXPlan(chosen: premium.fx, eximbankKey: root.eximbank(premium) != nil)
            let reader = root.fxReader(premium, coinGecko: nil)
            let now = root.clock.now
            let decision = await FXPlan.resolve(plan.order, now: now) { await reader.read($0, now: now) }.decision
            let executable = ExecutablePremiumReader(
                apis: [exchange: root.api(exchange)],
                globals: root.globalAPIs(premium),
                wallets: wallets,
                clock: root.clock
            ) { decision.quote }
            return await executable.read(exchange: exchange, symbol: symbol, venue: venue, amount: amount, language: language)
        }
        if json { return printJSON(table) }
        let f = MarketFormatter(language: language)
        print(
            UIText.executableTitle(language, ["amount": f.price(amount, quote: "KRW")])
                + " · \(exchange.displayName) ⇄ \(venue.displayName) · \(symbol)"
        )
        if let rate = table.fxRate, let source = table.fxSource {
            print(UIText.fxLabel(language) + " " + source.displayName(language) + " " + f.price(rate, quote: "KRW"))
        }
        for way in table.ways {
            let title = way.direction == ExecutablePremium.Direction.toKorea ? UIText.executableToKorea(language) : UIText.executableAbroad(language)
            print(TextColumns.fit(title, width: 28) + way.text)
        }
        for note in table.notes { print("· " + note) }
        if table.ways.allSatisfy({ $0.state == "noBook" }) { throw CLIFailure(code: .upstream, message: table.ways.first?.text ?? "") }
    }
}
