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
