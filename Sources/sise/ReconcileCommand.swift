import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseStore

/// `sise portfolio reconcile [--json]`: what each connected exchange account holds beside what the
/// portfolio's transactions say it should, per coin, with the difference explained — the check
/// that a synced or typed history is whole (`balanced` in `--json` says whether all agree).
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Compare the exchange accounts' holdings with what the transactions imply, coin by coin."
    )
    @OptionGroup var local: LocalData
    @Flag(
        help:
            "Print {\"rows\":[{\"exchange\",\"currency\",\"held\",\"implied\",\"difference\",\"verdict\",\"explanation\"}],\"balanced\"} as GET /api/portfolio/reconciliation does."
    )
    var json = false

    func run() async throws {
        let l = local.global.language
        let extra = AccountsCommand.environmentKeys(local.global.settings.sources)
        let holdings = try await AccountsCommand.withDesk(local) { try await $0.holdings(owner: LocalData.owner, extra: extra, language: l) }
        guard !holdings.sources.isEmpty else { throw CLIFailure.usage("sise: " + AccountText.keyNone(l)) }
        for source in holdings.sources where source.state != .live {
            FileHandle.standardError.write(Data(("sise: " + AccountHoldingsText(language: l).source(source) + "\n").utf8))
        }
        let transactions = try await local.store { try await PortfolioStore(database: $0).transactions(owner: LocalData.owner) }
        let reconciliation = Reconciliation(holdings: holdings, transactions: transactions, language: l)
        if json {
            printJSON(reconciliation)
        } else {
            for line in reconciliation.lines(l) { print(line) }
            if reconciliation.balanced { print(AccountText.reconcileBalanced(l)) }
        }
    }
}
