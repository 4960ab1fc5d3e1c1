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

    public init(restURL: URL, webSocketURL: URL? = nil, configuration: LiveBoardConfiguration = .init(),
                streamTiming: UpbitStreamConfiguration? = nil, logger: Logger) {
        transport = LiveHTTPTransport()
        api = UpbitClient(configuration: .init(baseURL: restURL), transport: transport)
        let stream = UpbitTickerStream(
            configuration: streamTiming ?? .init(url: webSocketURL ?? UpbitStreamConfiguration.webSocketURL(forREST: restURL)),
            logger: logger)
        board = LiveBoard(configuration: configuration, api: api, stream: stream, logger: logger)
    }
}
