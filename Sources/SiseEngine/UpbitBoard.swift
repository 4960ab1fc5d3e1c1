import Foundation
import Logging
import SiseFeeds

/// Wires a live Upbit board: REST client, ticker stream, engine. The one place every face
/// (serve, watch, tui) builds it.
public struct UpbitBoard: Sendable {
    public let board: LiveBoard
    public let transport: LiveHTTPTransport
    /// The REST client, for what the board does not hold (candles for charts).
    public let api: UpbitClient

    /// - Parameter silence: no data frame for this long → delayed, polling, a new socket.
    public init(restURL: URL, webSocketURL: URL? = nil, configuration: LiveBoardConfiguration = .init(),
                silence: Duration = .seconds(5), logger: Logger) {
        transport = LiveHTTPTransport()
        api = UpbitClient(configuration: .init(baseURL: restURL), transport: transport)
        let stream = UpbitTickerStream(
            configuration: .init(url: webSocketURL ?? UpbitStreamConfiguration.webSocketURL(forREST: restURL),
                                 silenceTimeout: silence),
            logger: logger)
        board = LiveBoard(configuration: configuration, api: api, stream: stream, logger: logger)
    }
}
