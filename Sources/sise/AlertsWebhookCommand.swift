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
        subcommands: [Add.self, List.self, Remove.self, Quiet.self],
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
        @OptionGroup var window: WindowOptions
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
            var hook: AlertStore.Webhook
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
            hook.window = try window.applied(to: hook.window, local.global.language)
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
            let language = local.global.language
            for row in rows {
                print([row.id, row.kind, row.chatId ?? row.url, row.disabled ? "off" : "on", row.windowWords(language)].joined(separator: "  "))
            }
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

    /// `sise alerts webhook quiet ID --quiet 23:00-07:00 --daily-cap 20`: a destination's quiet
    /// hours and daily cap (firings held back then go out in one digest when they end).
    struct Quiet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Set a destination's quiet hours and daily cap: sise alerts webhook quiet ID --quiet 23:00-07:00 [--time-zone Asia/Seoul] [--daily-cap 20]."
        )
        @OptionGroup var local: LocalData
        @Argument var id: String
        @OptionGroup var window: WindowOptions
        @Flag(help: "Print the destination as JSON.") var json = false

        func run() async throws {
            let store = { (database: AppDatabase) in AlertStore(database: database) }
            guard let hook = try await local.store({ try await store($0).destination(owner: LocalData.owner, id: id) }) else {
                throw CLIFailure.usage("sise: no destination \(id.prefix(40))")
            }
            let changed = try window.applied(to: hook.window, local.global.language)
            guard
                let kept = try await local.store({ try await store($0).setWindow(owner: LocalData.owner, id: id, changed, at: WallClock.system.now) })
            else {
                throw CLIFailure.usage("sise: no destination \(id.prefix(40))")
            }
            if json { return printJSON(AlertDestination.Listed(kept)) }
            print(AlertDestination.Listed(kept).windowWords(local.global.language))
        }
    }
}

/// A destination's quiet hours and daily cap on the command line.
struct WindowOptions: ParsableArguments {
    @Option(help: "Quiet hours, such as 23:00-07:00: firings are held back then and sent in one digest when they end.") var quiet: String?
    @Flag(help: "No quiet hours any more.") var noQuiet = false
    @Option(help: "The quiet hours' and the daily cap's time zone (IANA; default Asia/Seoul).") var timeZone: String?
    @Option(help: "At most this many firings a day (1-1000); the rest go in the next day's digest.") var dailyCap: Int?
    @Flag(help: "No daily cap any more.") var noCap = false

    func applied(to window: DeliveryWindow, _ language: Language) throws -> DeliveryWindow {
        var input = DeliveryWindowInput(timeZone: timeZone)
        if noQuiet { (input.quietStart, input.quietEnd) = (.some(nil), .some(nil)) }
        if let quiet {
            let parts = quiet.split(separator: "-", maxSplits: 1).map(String.init)
            (input.quietStart, input.quietEnd) = (.some(parts.first ?? ""), .some(parts.count == 2 ? parts[1] : ""))
        }
        if noCap { input.dailyCap = .some(nil) }
        if let dailyCap { input.dailyCap = .some(dailyCap) }
        do { return try input.applied(to: window) } catch { throw CLIFailure.usage("sise: " + error.message(language)) }
    }
}
