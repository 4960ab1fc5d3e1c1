import Foundation
import ServiceLifecycle
import SiseCore
import SiseFeeds

/// The exit codes scripts can rely on.
enum CLIExit: Int32 {
    case ok = 0
    case unexpected = 1
    case usage = 2
    case upstream = 3
}

/// A failure already worded for the user.
struct CLIFailure: Error {
    let code: CLIExit
    let message: String

    static func usage(_ message: String) -> CLIFailure { CLIFailure(code: .usage, message: message) }

    /// A market the exchange does not have, as every face refuses it (exit 2).
    static func listing(_ problem: ListingProblem, _ language: Language) -> CLIFailure {
        .usage("sise: " + problem.message(language))
    }

    /// Upstream trouble, in the user's language.
    static func upstream(_ error: FeedError, _ language: Language) -> CLIFailure {
        CLIFailure(code: .upstream, message: "sise: " + error.message(language))
    }
}

/// Runs `body` while `service` runs beside it (a one-shot command's cache, whose upstream calls
/// are the service's child tasks); the service is cancelled when `body` ends.
func whileRunning<T: Sendable>(_ service: any Service, _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await service.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// What `body` resolves against an exchange's listing, or exit 2 with the listing's refusal in
/// the user's language.
func listed<T>(_ language: Language, _ body: () throws(ListingProblem) -> T) throws(CLIFailure) -> T {
    do { return try body() } catch { throw .listing(error, language) }
}
