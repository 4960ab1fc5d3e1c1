import Foundation

/// The tax year as a tax accountant reads it in a spreadsheet: one row per coin (the opening, the
/// year's buys and sells, the gain, and the exchanges' prices that formed the deemed price), or
/// one row per transaction (each disposal with its cost under the method). Times in KST, the
/// method and the rule for units without a cost named on every row, money exact, a byte order
/// mark first so Excel reads the Korean headers.
public enum TaxCSV {
    public enum Rows: String, CaseIterable, Sendable {
        case coins, transactions
    }

    public static func encode(
        _ rows: [CoinTaxYear],
        preview: TaxPreview,
        deemed: [String: DeemedPrice],
        kind: Rows,
        language: Language,
        bom: Bool = true
    ) -> String {
        var lines: [[String]] = []
        let ko = language == .ko
        switch kind {
        case .coins:
            lines.append(
                ko
                    ? [
                        "연도", "계산방법", "취득가없는수량규칙", "코인", "기초수량", "기초실제취득가", "의제취득가", "기초취득가", "적용", "매수수량", "매수금액",
                        "평균단가", "매도수량", "양도가액", "필요경비(수수료)", "양도원가", "손익", "기말수량", "기말취득가", "취득가없는수량", "의제가격(평균)",
                        "의제가격(거래소별)",
                    ]
                    : [
                        "year", "method", "no-cost rule", "coin", "opening quantity", "opening actual cost", "deemed cost", "opening cost",
                        "opening", "bought quantity", "bought cost", "average cost", "sold quantity", "proceeds", "fees", "cost of sold",
                        "gain", "closing quantity", "closing cost", "units without cost", "deemed price (average)",
                        "deemed price (per exchange)",
                    ]
            )
            for row in rows {
                let price = deemed[row.coin]
                let perExchange = (price?.quotes ?? []).map { quote in
                    "\(quote.exchange.rawValue) \(money(quote.price)) (\(quote.source.rawValue) \(PortfolioCSV.isoTime(quote.tradedAt)))"
                }
                lines.append([
                    String(preview.year), preview.method, preview.noCost, row.coin, money(row.openingQuantity), money(row.openingActualCost),
                    row.openingDeemedCost.map(money) ?? "", money(row.openingCost), row.opening.rawValue, money(row.boughtQuantity),
                    money(row.boughtCost), money(row.averageCost), money(row.soldQuantity), money(row.proceeds), money(row.fees),
                    money(row.costOfSold), money(row.gain), money(row.closingQuantity), money(row.closingCost), money(row.uncostedQuantity),
                    price?.average.map(money) ?? "", perExchange.joined(separator: "; "),
                ])
            }
            let t = preview.totals
            let label = { (korean: String, english: String) in ko ? korean : english }
            for (name, value) in [
                (label("가상자산소득", "income"), t.income), (label("기본공제", "deduction"), t.deduction), (label("과세표준", "taxable"), t.taxable),
                (label("소득세 20%", "income tax 20 %"), t.tax), (label("지방소득세", "local tax"), t.localTax), (label("예상 세액", "estimated tax"), t.total),
            ] {
                lines.append([String(preview.year), preview.method, preview.noCost, name, value])
            }
        case .transactions:
            lines.append(
                ko
                    ? ["연도", "계산방법", "일시(KST)", "코인", "구분", "수량", "금액", "수수료", "양도원가", "손익", "거래ID"]
                    : ["year", "method", "time (KST)", "coin", "kind", "quantity", "amount", "fee", "cost of sold", "gain", "transaction id"]
            )
            let all = rows.flatMap { row in row.lines.map { (row.coin, $0) } }.sorted { ($0.1.at, $0.0) < ($1.1.at, $1.0) }
            for (coin, line) in all {
                lines.append([
                    String(preview.year), preview.method, PortfolioCSV.isoTime(line.at), coin, line.kind.rawValue, money(line.quantity),
                    money(line.krw), money(line.fee), line.cost.map(money) ?? "", line.gain.map(money) ?? "", line.id,
                ])
            }
        }
        lines.append([preview.notice])
        let body = lines.map { fields in fields.map { PortfolioCSV.quoted(cell($0)) }.joined(separator: ",") }
            .joined(separator: "\r\n")
        return (bom ? "\u{FEFF}" : "") + body + "\r\n"
    }

    /// A number as it is (a loss's minus is a sign, not a formula); any other text made safe.
    static func cell(_ text: String) -> String {
        let digits = text.first == "-" ? text.dropFirst() : text[...]
        let number = !digits.isEmpty && digits.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        return number ? text : SpreadsheetCell.escape(text)
    }

    /// Exact, with up to 8 places (no grouping: a spreadsheet reads it as a number).
    static func money(_ value: Decimal) -> String { PortfolioLedger.text(value, scale: 8) }
}
