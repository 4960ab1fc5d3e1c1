import ArgumentParser
import Foundation
import SiseCore
import SiseStore

/// The terminal's own data (portfolio, alerts), kept for the local owner in the data directory
/// `sise tui` and `sise serve` share.
struct LocalData: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("data-dir"), help: "Data directory (default $XDG_DATA_HOME/sise or ~/.local/share/sise).")
    var dataDirectory: String?

    /// Whose data the terminal reads and writes (`sise tui` keeps its favorites under it too).
    static let owner = "local"

    func database() throws -> AppDatabase {
        try Self.open(global, dataDirectory)
    }

    static func open(_ global: GlobalOptions, _ dataDirectory: String?) throws -> AppDatabase {
        do {
            return try AppDatabase.open(directory: global.settings.dataDirectory(flag: dataDirectory))
        } catch {
            throw CLIFailure(code: .unexpected, message: StartupFailure.message(error, language: global.language))
        }
    }

    /// Runs `body` on the data directory's database; a store error becomes the user's one line.
    @discardableResult
    func store<T>(_ body: (AppDatabase) async throws -> T) async throws -> T {
        let database = try database()
        do { return try await body(database) } catch let error as StoreError { throw failure(error) }
    }

    /// A store error as the user's one line (exit 2 for a refused change, 1 otherwise).
    func failure(_ error: StoreError) -> CLIFailure {
        switch error {
        case .ledger, .tooManyRecords, .invalidItem, .tooMany: CLIFailure.usage("sise: " + error.message(global.language))
        default: CLIFailure(code: .unexpected, message: "sise: " + error.message(global.language))
        }
    }
}
