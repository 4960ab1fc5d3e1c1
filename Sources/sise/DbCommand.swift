import ArgumentParser
import Foundation
import SiseStore

/// `sise db migrate|export|import`: the store's schema and moving its data between SQLite and
/// PostgreSQL (JSON lines).
struct DbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Migrate the store, or export and import all of its data as JSON lines (SQLite ↔ PostgreSQL).",
        subcommands: [Migrate.self, Export.self, Import.self]
    )

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply the store's migrations and list them.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var storage: StoreOptions

        func run() async throws {
            let database = try await Root.store(global.settings, storage)
            let applied = try await database.appliedMigrations()
            print("\(database.location): \(applied.count) of \(AppDatabase.migrationNames.count) migrations applied")
            for name in applied { print("  \(name)") }
            await database.close()
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every row of the store as JSON lines (standard output, or --output FILE, made readable by its owner only).",
            discussion:
                "The export holds password hashes, sessions, webhook secrets, chat tokens and the server's keys: keep it as secret as the store."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var storage: StoreOptions
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

        func run() async throws {
            let database = try await Root.store(global.settings, storage)
            let sink: FileHandle
            if let output {
                // Owner-only from the first byte (and an existing file is narrowed before it is written):
                // the export holds password hashes, secrets and the server's keys.
                guard FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o600]),
                    (try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)) != nil,
                    let handle = FileHandle(forWritingAtPath: output)
                else {
                    throw CLIFailure(code: .unexpected, message: "sise: cannot write \(output)")
                }
                sink = handle
            } else {
                sink = FileHandle.standardOutput
            }
            let counts = try await StoreTransfer(database: database).export { line in sink.write(Data((line + "\n").utf8)) }
            if output != nil { try? sink.close() }
            await database.close()
            FileHandle.standardError.write(Data("exported \(DbCommand.summary(counts)) from \(database.location)\n".utf8))
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read an export (FILE, or - for standard input) into an empty store, all of it or nothing."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var storage: StoreOptions
        @Argument(help: "The export: a file, or - for standard input.") var file: String
        @Flag(help: "Replace what the store holds instead of refusing a store that is not empty.") var replace = false

        func run() async throws {
            let text: String
            if file == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: file) else { throw CLIFailure.usage("sise: cannot read \(file)") }
                text = String(decoding: data, as: UTF8.self)
            }
            let database = try await Root.store(global.settings, storage)
            do {
                let counts = try await StoreTransfer(database: database).importLines(text.components(separatedBy: "\n"), replace: replace)
                await database.close()
                print("imported \(DbCommand.summary(counts)) into \(database.location)")
            } catch let problem as StoreTransfer.Problem {
                switch problem {
                case .badLine(let line, let reason): throw CLIFailure.usage("sise: line \(line) of \(file): \(reason); nothing was imported")
                case .notEmpty(let table):
                    throw CLIFailure.usage("sise: \(database.location) already holds data (\(table)); import into an empty store or pass --replace")
                }
            }
        }
    }

    static func summary(_ counts: [String: Int]) -> String {
        let total = counts.values.reduce(0, +)
        let parts = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(total) rows" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
    }
}
