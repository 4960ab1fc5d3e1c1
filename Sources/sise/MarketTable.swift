import Foundation
import SiseCore

/// The CLI's board table: columns sized by display width so Hangul names line up.
struct MarketTable {
    let language: Language
    let color: Bool
    static let maxNameWidth = 24

    /// - Parameter premium: the premium's inputs; KRW boards get a 김프 column.
    func render(_ rows: [MarketRow], premium: PremiumInputs = .none) -> [String] {
        let formatter = MarketFormatter(language: language)
        let text = BoardText(language: language)
        let krw = rows.first?.id.quote == "KRW"
        let header = BoardText.Column.allCases.filter { krw || $0 != .premium }.map(text.title)
        let cells: [[String]] = rows.map { row in
            let d = formatter.display(row, premium: premium.premium(row))
            return [
                text.markPrefix(row.market) + row.market.name(in: language), "\(row.market.symbol)/\(row.id.quote)",
                d.price, d.changeRate, d.changePrice, d.tradeValue,
            ] + (krw ? [d.premium] : [])
        }
        var widths = header.map(DisplayWidth.of)
        for line in cells {
            for (i, cell) in line.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        widths[0] = min(widths[0], Self.maxNameWidth)
        var out = [format(header, widths: widths, paint: nil, bold: true)]
        for (row, line) in zip(rows, cells) {
            out.append(format(line, widths: widths, paint: Terminal.color(row.ticker.change.tone), bold: false))
        }
        if rows.isEmpty { out.append(UIText.noMarketsMatch(language)) }
        return out
    }

    private func format(_ cells: [String], widths: [Int], paint: Terminal.Color?, bold: Bool) -> String {
        var parts: [String] = []
        for (i, cell) in cells.enumerated() {
            let fitted = TextColumns.fit(cell, width: widths[i], alignment: i < 2 ? .left : .right)
            parts.append(i >= 2 ? Terminal.paint(fitted, paint, enabled: color) : fitted)
        }
        let line = parts.joined(separator: "  ")
        return bold ? Terminal.paint(line, .bold, enabled: color) : line
    }
}
