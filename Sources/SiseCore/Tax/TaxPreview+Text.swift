/// The preview as a terminal shows it: a table of coins (`sise tax`) and one summary line (the
/// TUI's portfolio), from the figures the preview already formatted.
extension TaxPreview {
    public static func header(_ language: Language) -> [String] {
        language == .ko
            ? ["코인", "기초수량", "기초취득가", "적용", "매도수량", "양도가액", "양도원가", "손익"]
            : ["Coin", "Opening", "Opening cost", "Basis", "Sold", "Proceeds", "Cost of sold", "Gain"]
    }

    /// Columns from this one on are numbers (right-aligned), except the basis word.
    public static let numericFrom = 1

    public var lines: [PortfolioText.Line] {
        coins.map { coin in
            let d = coin.display
            let cells = [
                coin.coin, d["openingQuantity"] ?? "", d["openingCost"] ?? "", d["opening"] ?? "", d["soldQuantity"] ?? "",
                d["proceeds"] ?? "", d["costOfSold"] ?? "", d["gain"] ?? "",
            ]
            return PortfolioText.Line(cells: cells, tone: Tone(rawValue: d["tone"] ?? "") ?? .even, allocation: nil)
        }
    }

    /// The year's totals, one `label  value` line each.
    public func totalLines(_ language: Language) -> [String] {
        let t = totals.display
        let won = language == .ko ? "원" : " KRW"
        var lines = [
            "\(TaxText.income(language))  \(t["income"] ?? "")\(won)", "\(TaxText.deduction(language))  \(t["deduction"] ?? "")\(won)",
            "\(TaxText.taxable(language))  \(t["taxable"] ?? "")\(won)", "\(TaxText.nationalTax(language))  \(t["tax"] ?? "")\(won)",
            "\(TaxText.localTax(language))  \(t["localTax"] ?? "")\(won)", "\(TaxText.totalTax(language))  \(t["total"] ?? "")\(won)",
        ]
        if let sold = ifSoldNow, let added = addedBySale {
            lines.append(
                "\(TaxText.ifSoldNow(language)): \(TaxText.totalTax(language)) \(sold.display["total"] ?? "")\(won) (\(TaxText.addedBySale(language)) \(DecimalText.grouped(PortfolioLedger.decimal(added) ?? 0, places: 0))\(won))"
            )
        }
        return lines
    }

    /// One line: the year, its income and the estimated tax, provisional.
    /// With everything sold now (the current year), what the tax would then be.
    public func summary(_ language: Language) -> String {
        let t = totals.display
        let line = TaxText.summary(
            language,
            ["year": String(year), "income": t["income"] ?? "", "taxable": t["taxable"] ?? "", "total": t["total"] ?? ""]
        )
        guard let sold = ifSoldNow?.display["total"] else { return line }
        return line + " · " + TaxText.summarySale(language, ["total": sold])
    }
}
