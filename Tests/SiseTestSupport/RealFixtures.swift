import Foundation

/// The real recorded upstream responses in `../shared/fixtures/real`, read in place (never
/// copied into the project). Tests that need them are skipped with a message when absent.
public enum RealFixtures {
    public static let directory: URL =
        packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/real", isDirectory: true)

    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("SOURCES.md").path)
    }

    public static let skipReason = "../shared/fixtures/real is absent; real-fixture tests skipped"

    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Every fixture file whose name starts with `prefix`.
    public static func names(prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// The package root, from this file's location (Tests/SiseTestSupport/RealFixtures.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
