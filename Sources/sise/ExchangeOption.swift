import ArgumentParser
import SiseCore

/// `--exchange ID`, any exchange of the registry (default upbit, as before there were more).
struct ExchangeOption: ParsableArguments {
    @Option(name: .customLong("exchange"), help: ArgumentHelp("Exchange: \(Exchange.names) (default \(Exchange.default.rawValue))."))
    var name: String = Exchange.default.rawValue

    var exchange: Exchange { Exchange(name: name) ?? .default }

    func validate() throws {
        guard Exchange(name: name) != nil else { throw ValidationError("--exchange must be \(Exchange.names), not '\(name.prefix(40))'.") }
    }

    /// The quote must be one the exchange has (Korbit: KRW only); the refusal in `language`.
    func check(quote: QuoteCurrency, _ language: Language) throws {
        do { try MarketListing.check(quote: quote, on: exchange) } catch { throw ValidationError(error.message(language)) }
    }
}
