import ArgumentParser
import Foundation
import SiseCore
import SiseStore

/// The terminal's own data (portfolio, alerts), kept for the local owner in the data directory
/// `sise tui` and `sise serve` share.
struct LocalData: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: StoreOptions

    /// Whose data the terminal reads and writes (`sise tui` keeps its favorites under it too).
    static let owner = "local"

    func database() async throws -> AppDatabase {
        try await Root.store(global.settings, storage)
    }

    /// Runs `body` on the data directory's database; a store error becomes the user's one line.
    @discardableResult
    func store<T>(_ body: (AppDatabase) async throws -> T) async throws -> T {
        let database = try await database()
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body(database)) } catch { outcome = .failure(error) }
        await database.close()
        do { return try outcome.get() } catch let error as StoreError { throw failure(error) }
    }

    /// A store error as the user's one line (exit 2 for a refused change, 1 otherwise).
    func failure(_ error: StoreError) -> CLIFailure {
        switch error {
        case .ledger, .tooManyRecords, .invalidItem, .tooMany: CLIFailure.usage("sise: " + error.message(global.language))
        default: CLIFailure(code: .unexpected, message: "sise: " + error.message(global.language))
        }
    }
}
