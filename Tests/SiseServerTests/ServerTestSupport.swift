import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport

/// The real app (demo simulator, SQLite in a temp folder) under Hummingbird's live test client.
enum ServerHarness {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sise-test-\(UUID().uuidString)")
    }

    static func run<T: Sendable>(dataDirectory: URL = temporaryDirectory(), hostile: Bool = false,
                                 _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let configuration = ServerConfiguration(port: 0, demo: true, demoHostileNames: hostile, dataDirectory: dataDirectory)
        let app = try await SiseServerApp.build(configuration)
        return try await app.test(.live) { client in
            // The board is live before the first assertion.
            _ = try await waitUntil(timeout: .seconds(15)) {
                let response = try await client.execute(uri: "/api/status", method: .get)
                return String(buffer: response.body).contains("\"state\":\"live\"")
            }
            return try await body(client)
        }
    }
}

/// A browser's cookie jar, enough for the device and CSRF cookies.
struct CookieJar: Sendable {
    var cookies: [String: String] = [:]

    mutating func take(_ response: TestResponse) {
        for field in response.headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
    }

    var header: String { cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }

    /// Headers of a request from Sise's own page: cookies and the CSRF echo.
    var pageHeaders: HTTPFields {
        var fields: HTTPFields = [.cookie: header]
        if let csrf = cookies["sise_csrf"] { fields[HTTPField.Name("X-CSRF-Token")!] = csrf }
        return fields
    }
}

func json(_ response: TestResponse) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
}

func errorCode(_ response: TestResponse) -> String? {
    ((json(response) as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
}
