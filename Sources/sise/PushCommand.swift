import ArgumentParser
import Foundation
import SiseServer
import SiseStore

/// `sise push key`: the server's Web Push (VAPID) public key from the store — made there on first
/// use, the same one every `sise serve` on that store gives pages at `GET /api/push/key`.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Web Push: the server's VAPID public key.",
        subcommands: [Key.self]
    )

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the VAPID public key (base64url, as pages pass it to pushManager.subscribe)."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var storage: StoreOptions
        @Flag(help: "Print {\"publicKey\": …} as JSON.") var json = false

        func run() async throws {
            let database = try await Root.store(global.settings, storage)
            let vapid = try await PushKey.load(from: ServerKeys(database: database), subject: "mailto:sise@localhost")
            print(json ? #"{"publicKey":"\#(vapid.publicKey)"}"# : vapid.publicKey)
        }
    }
}
