import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise alerts webhook add|list|rm`: where the terminal's alerts go besides the terminal — a
/// signed webhook (`add URL SECRET`), or a chat: `--telegram BOT_TOKEN CHAT_ID`, `--discord URL`,
/// `--slack URL`. Checked as the API checks them; delivered by `sise watch --alerts` through the
/// same queue the server uses. Secrets are never printed again.
struct AlertsWebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Add, list or remove where the terminal's alerts are sent (a webhook, Telegram, Discord, Slack).",
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "sise alerts webhook add URL SECRET | --telegram BOT_TOKEN CHAT_ID | --discord URL | --slack URL"
        )
        @OptionGroup var local: LocalData
        @Argument(help: "A webhook's URL and secret (8–256 characters), or with --telegram the bot token and chat id.") var values: [String] = []
        @Flag(help: "A Telegram chat: BOT_TOKEN CHAT_ID.") var telegram = false
        @Option(help: "A Discord channel webhook URL.") var discord: String?
        @Option(help: "A Slack incoming webhook URL.") var slack: String?
        @Flag(help: "Allow loopback and private addresses (a receiver on your own network).") var allowPrivate = false
        @Flag(help: "Print the kept destination as JSON.") var json = false

        func run() async throws {
            var request = AlertDestination.Request()
            switch (telegram, discord, slack) {
            case (true, nil, nil):
                guard values.count == 2 else { throw CLIFailure.usage("sise: --telegram takes BOT_TOKEN CHAT_ID") }
                (request.kind, request.botToken, request.chatId) = ("telegram", values[0], values[1])
            case (false, let url?, nil):
                (request.kind, request.url) = ("discord", url)
            case (false, nil, let url?):
                (request.kind, request.url) = ("slack", url)
            case (false, nil, nil):
                guard values.count == 2 else { throw CLIFailure.usage("sise: give URL SECRET, or --telegram, --discord or --slack") }
                (request.kind, request.url, request.secret) = ("generic", values[0], values[1])
            default:
                throw CLIFailure.usage("sise: one of URL SECRET, --telegram, --discord, --slack")
            }
            let chats = try local.global.settings.chats()
            let hook: AlertStore.Webhook
            do {
                hook = try AlertDestination.webhook(
                    request,
                    id: UUID().uuidString.lowercased(),
                    owner: LocalData.owner,
                    language: local.global.language,
                    at: WallClock.system.now,
                    poster: Root.poster(allowPrivate: allowPrivate),
                    chats: chats
                )
            } catch {
                throw CLIFailure.usage("sise: \(error.field): \(error.message(local.global.language))")
            }
            try await local.store { try await AlertStore(database: $0).addWebhook(hook) }
            if json { return printJSON(AlertDestination.Listed(hook)) }
            print(hook.id)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every destination: id, kind, where (secrets masked).")
        @OptionGroup var local: LocalData
        @Flag(help: "Print {\"webhooks\":[…]} as the API does.") var json = false

        func run() async throws {
            let rows = try await local.store { try await AlertStore(database: $0).webhooks(owner: LocalData.owner) }.map(AlertDestination.Listed.init)
            if json {
                struct Webhooks: Encodable { let webhooks: [AlertDestination.Listed] }
                return printJSON(Webhooks(webhooks: rows))
            }
            for row in rows { print([row.id, row.kind, row.chatId ?? row.url, row.disabled ? "off" : "on"].joined(separator: "  ")) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a destination by its id.")
        @OptionGroup var local: LocalData
        @Argument var id: String

        func run() async throws {
            guard try await local.store({ try await AlertStore(database: $0).removeWebhook(owner: LocalData.owner, id: id) }) else {
                throw CLIFailure.usage("sise: no webhook \(id.prefix(40))")
            }
        }
    }
}
