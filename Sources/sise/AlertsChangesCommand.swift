import ArgumentParser
import Foundation
import SiseCore
import SiseStore

extension AlertsCommand {
    /// `sise alerts changes [--wallets on|off] [--flags on|off] [--listings on|off] [--json]`: the
    /// terminal's 변동 알림 — told by `sise watch --alerts` as its price alerts are.
    struct Changes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "changes",
            abstract:
                "Which changes sise watch --alerts tells: a starred or held coin's wallet suspended or reopened, a starred or held coin flagged, cleared or delisted, any new listing."
        )

        enum Switch: String, ExpressibleByArgument, CaseIterable {
            case on, off
            var isOn: Bool { self == .on }
        }

        @OptionGroup var local: LocalData
        @Option(help: "A starred or held coin's wallet suspended or reopened: on or off.") var wallets: Switch?
        @Option(help: "A starred or held coin flagged, cleared or delisted: on or off.") var flags: Switch?
        @Option(help: "Any new listing on any exchange: on or off.") var listings: Switch?
        @Flag(help: "Print {\"wallets\",\"flags\",\"listings\"} as GET /api/alerts/changes does.") var json = false

        func run() async throws {
            let (wallets, flags, listings) = (wallets, flags, listings)
            let now = WallClock.system.now
            let settings = try await local.store { database in
                let store = ChangeAlertStore(database: database)
                var settings = try await store.settings(owner: LocalData.owner)
                guard wallets != nil || flags != nil || listings != nil else { return settings }
                settings.wallets = wallets?.isOn ?? settings.wallets
                settings.flags = flags?.isOn ?? settings.flags
                settings.listings = listings?.isOn ?? settings.listings
                try await store.set(settings, owner: LocalData.owner, at: now)
                return settings
            }
            if json { return printJSON(settings) }
            let language = local.global.language
            print(ChangeAlerts.Topic.allCases.map { (settings.wants($0) ? "[x] " : "[ ] ") + $0.text(language) }.joined(separator: "\n"))
        }
    }
}
