import Foundation
import SiseCore
import SiseFeeds
import Testing

/// The registry holds every exchange once, and what is derived from an id is derived the same way
/// for each: settings, the simulator's mount, the WebSocket of a REST base given by hand.
@Suite struct ExchangeRegistryTests {
    @Test func everyExchangeHasExactlyOneSpec() {
        #expect(ExchangeRegistry.all.map(\.exchange) == Exchange.allCases)
        for exchange in Exchange.allCases { #expect(ExchangeRegistry.spec(exchange).exchange == exchange) }
        #expect(Set(ExchangeRegistry.all.map(\.simulatorPath)).count >= ExchangeRegistry.all.count - 1, "at most Upbit and Korbit share the root")
    }

    @Test(arguments: ExchangeRegistry.all.map(\.exchange))
    func settingsAndAddressesFollowTheID(_ exchange: Exchange) throws {
        let spec = ExchangeRegistry.spec(exchange)
        #expect(spec.restSetting == "\(exchange.rawValue)-url" && spec.webSocketSetting == "\(exchange.rawValue)-ws-url")
        // The live defaults as they are; a REST base given by hand takes its WebSocket from its host.
        #expect(spec.endpoint() == ExchangeEndpoint(exchange: exchange, rest: spec.restURL, webSocket: spec.webSocketURL))
        let simulator = try #require(URL(string: "http://127.0.0.1:9000"))
        let simulated = spec.simulated(at: simulator)
        #expect(simulated.rest.absoluteString.hasPrefix("http://127.0.0.1:9000"))
        #expect(
            simulated.webSocket.absoluteString == simulated.rest.absoluteString.replacingOccurrences(of: "http:", with: "ws:") + spec.webSocketPath
        )
        let given = try #require(URL(string: "wss://elsewhere.test/ws"))
        #expect(spec.endpoint(rest: simulated.rest, webSocket: given).webSocket == given)
        #expect(spec.restURL.scheme == "https" && spec.webSocketURL.scheme == "wss")
    }

    @Test func theExchangesThatNameNoCoinBorrowFromThoseThatDo() {
        let borrowers = ExchangeRegistry.all.filter(\.borrowsNames).map(\.exchange)
        #expect(borrowers == [.korbit, .coinone])
        #expect(Exchange.byShare.first == .default, "names come first from the largest exchange")
    }
}
