import Foundation
import SiseCore

/// Prints board rows as an aligned table (Hangul-aware, coloured) or as the JSON array.
struct RowOutput {
    let language: Language
    let color: Bool

    func print(_ rows: [MarketRow], json: Bool, premium: PremiumInputs = .none) throws {
        let formatter = MarketFormatter(language: language)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            let data = try encoder.encode(rows.map { MarketRowJSON($0, formatter: formatter, premium: premium.premium($0)) })
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            let lines = MarketTable(language: language, color: color).render(rows, premium: premium)
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
