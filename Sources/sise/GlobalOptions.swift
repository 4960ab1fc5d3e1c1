import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("upbit-url"),
            help: "Upbit REST base URL (env SISE_UPBIT_URL; default https://api.upbit.com).")
    var upbitURLOption: String?

    @Option(name: .customLong("upbit-ws-url"),
            help: "Upbit WebSocket URL (env SISE_UPBIT_WS_URL; default derived from --upbit-url: ws(s)://HOST/websocket/v1).")
    var upbitWebSocketURLOption: String?

    @Option(name: .customLong("lang"), help: "Language of the output: ko or en (default ko).")
    var languageOption: String = "ko"

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    static let defaultUpbitURL = "https://api.upbit.com"

    var language: Language { Language(rawValue: languageOption.lowercased()) ?? .ko }

    var upbitURL: URL {
        let text = upbitURLOption ?? ProcessInfo.processInfo.environment["SISE_UPBIT_URL"] ?? Self.defaultUpbitURL
        return URL(string: text)!
    }

    var upbitWebSocketURL: URL {
        explicitUpbitWebSocketURL ?? UpbitStreamConfiguration.webSocketURL(forREST: upbitURL)
    }

    /// The WebSocket URL when one was given (flag, then `SISE_UPBIT_WS_URL`); nil: derived from
    /// the REST URL. The one place that reads the setting.
    var explicitUpbitWebSocketURL: URL? {
        upbitWebSocketURLText.flatMap(URL.init(string:))
    }

    private var upbitWebSocketURLText: String? {
        upbitWebSocketURLOption ?? ProcessInfo.processInfo.environment["SISE_UPBIT_WS_URL"]
    }

    var useColor: Bool {
        !noColor && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true && Terminal.isTerminal(stdout: true)
    }

    func validate() throws {
        guard Language(rawValue: languageOption.lowercased()) != nil else {
            throw ValidationError("--lang must be ko or en, not '\(languageOption)'.")
        }
        let text = upbitURLOption ?? ProcessInfo.processInfo.environment["SISE_UPBIT_URL"] ?? Self.defaultUpbitURL
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw ValidationError("--upbit-url must be an http(s) URL, not '\(text)'.")
        }
        if let ws = upbitWebSocketURLText {
            guard let url = URL(string: ws), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
                  url.host?.isEmpty == false else {
                throw ValidationError("--upbit-ws-url must be a ws(s) URL, not '\(ws)'.")
            }
        }
    }

    /// Runs `body` with a live Upbit client, shutting its connections down on every path, and
    /// turns feed errors into exit code 3 with a line in the user's language.
    func withUpbit<T>(_ body: (UpbitClient) async throws -> T) async throws -> T {
        try await withTransport(language) { transport in
            try await body(UpbitClient(configuration: .init(baseURL: upbitURL), transport: transport))
        }
    }
}
