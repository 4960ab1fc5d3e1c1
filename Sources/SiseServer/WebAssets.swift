import Foundation

/// The web UI's files, shipped as package resources of SiseServer.
enum WebAssets {
    static var directory: URL? {
        Bundle.module.url(forResource: "Public", withExtension: nil)
    }

    static func file(_ name: String) -> Data? {
        Bundle.module.url(forResource: name, withExtension: nil).flatMap { try? Data(contentsOf: $0) }
    }
}

/// The API's OpenAPI 3.1 description (`GET /openapi.yaml`), for faces that answer as the API does.
public enum APIDescription {
    public static var yaml: String? { WebAssets.file("openapi.yaml").map { String(decoding: $0, as: UTF8.self) } }
}
