/// The tax preview's words, in Korean and English (every face reads them from here).
public enum TaxText: String, WordTable {
    case notice, provisionalDeemed, liveDeemed, noDeemedPrice, noCost, notTaxed, moreThanHeld, invalid, openingDeemed, openingActual,
        openingCarried, tabTitle, income, deduction, taxable, nationalTax, localTax, totalTax, ifSoldNow, addedBySale, method, gain, summary,
        holdingsTab, taxYear, methodTotalAverage, methodMovingAverage, methodFIFO, exportCoins, exportTransactions, deemedPrice, averageCost,
        opening, sold, proceeds, costOfSold, fees, closing, taxLoading, won, summarySale

    public var texts: (ko: String, en: String) {
        switch self {
        case .notice:
            (
                "예상치이며 세무 자문이 아닙니다. 규칙은 {date} 기준 공개 자료(소득세법 시행령 §88)로 읽었습니다.",
                "An estimate, not tax advice. The rules were read from public sources (Income Tax Act Enforcement Decree §88) as of {date}."
            )
        case .provisionalDeemed:
            (
                "의제취득가는 국세청이 시가고시 사업자를 고시할 때까지 잠정입니다(찾은 목록은 2021년의 업비트·빗썸·코빗·코인원).",
                "The deemed prices are provisional until the National Tax Service names the exchanges (the only list found, 2021's: Upbit, Bithumb, Korbit, Coinone)."
            )
        case .liveDeemed:
            (
                "2027년 1월 1일 0시 전입니다: 의제취득가는 지금 시세의 평균입니다(올해가 지금 끝난다면).",
                "Before 2027-01-01 00:00: the deemed prices are today's average prices (as if the year ended now)."
            )
        case .noDeemedPrice:
            ("{coin}: 2027년 1월 1일 0시 시세가 없어 실제 취득가를 씁니다.", "{coin}: no price at 2027-01-01 00:00; the actual cost is used.")
        case .noCost:
            (
                "{coin}: 취득가 없이 들어온 {quantity}개(에어드롭·외부 입금). 취득가 0으로 계산했습니다. 양도가의 50%를 취득가로 보면 소득 {alternative}원.",
                "{coin}: {quantity} units came in without a cost (an airdrop, a deposit from outside), counted at cost 0. Taking 50 % of the proceeds as their cost, the income is {alternative} KRW."
            )
        case .notTaxed: ("가상자산 과세는 2027년부터입니다: {year}년에는 세금이 없습니다.", "Virtual assets are taxed from 2027: there is no tax for {year}.")
        case .moreThanHeld:
            (
                "{coin}: 그 시점에 가진 것보다 많이 팔았습니다(거래 {id}). 빠진 매수나 입금을 추가하세요.",
                "{coin}: more sold than held at the time (transaction {id}). Add the missing buy or deposit."
            )
        case .invalid: ("거래 {id}의 수량·가격·수수료가 올바르지 않습니다.", "Transaction {id} has a quantity, price or fee that is not valid.")
        case .openingDeemed: ("의제취득가", "deemed cost")
        case .openingActual: ("실제 취득가", "actual cost")
        case .openingCarried: ("전년 이월", "carried over")
        case .tabTitle: ("세금", "Tax")
        case .income: ("가상자산소득", "Income")
        case .deduction: ("기본공제", "Deduction")
        case .taxable: ("과세표준", "Taxable")
        case .nationalTax: ("소득세 20%", "Income tax 20 %")
        case .localTax: ("지방소득세 2%", "Local tax 2 %")
        case .totalTax: ("예상 세액", "Estimated tax")
        case .ifSoldNow: ("지금 모두 판다면", "If everything were sold now")
        case .addedBySale: ("늘어나는 세액", "Tax added")
        case .method: ("취득가 계산", "Cost method")
        case .gain: ("손익", "Gain")
        case .holdingsTab: ("보유자산", "Holdings")
        case .taxYear: ("과세 연도", "Tax year")
        case .methodTotalAverage: ("총평균법(기본)", "Total average (default)")
        case .methodMovingAverage: ("이동평균법", "Moving average")
        case .methodFIFO: ("선입선출법", "First in, first out")
        case .exportCoins: ("코인별 CSV", "CSV per coin")
        case .exportTransactions: ("거래별 CSV", "CSV per transaction")
        case .deemedPrice: ("의제가격(2027-01-01 0시)", "Deemed price (2027-01-01 00:00)")
        case .averageCost: ("평균단가", "Average cost")
        case .opening: ("기초", "Opening")
        case .sold: ("매도", "Sold")
        case .proceeds: ("양도가액", "Proceeds")
        case .costOfSold: ("양도원가", "Cost of sold")
        case .fees: ("수수료", "Fees")
        case .closing: ("기말 보유", "Held at the end")
        case .won: ("{value}원", "{value} KRW")
        case .taxLoading: ("세금을 계산하는 중…", "Working out the tax…")
        case .summary:
            (
                "{year} 세금 미리보기(잠정·예상치): 소득 {income}원 · 과세표준 {taxable}원 · 예상 세액 {total}원",
                "{year} tax preview (provisional estimate): income {income} KRW · taxable {taxable} KRW · estimated tax {total} KRW"
            )
        case .summarySale: ("지금 모두 팔면 예상 세액 {total}원", "all sold now: estimated tax {total} KRW")
        }
    }
}

extension TaxText {
    /// The page's words, each key prefixed `tax.` (beside `UIText`'s, never over them).
    public static func page(_ language: Language) -> [String: String] {
        Dictionary(uniqueKeysWithValues: table(language).map { ("tax." + $0.key, $0.value) })
    }
}

extension TaxYearError {
    /// The refusal in the reader's words.
    public func message(_ language: Language) -> String {
        switch self {
        case .notTaxed(let year): TaxText.notTaxed(language, ["year": String(year)])
        case .moreThanHeld(let id, let coin): TaxText.moreThanHeld(language, ["coin": coin, "id": id])
        case .invalid(let id): TaxText.invalid(language, ["id": id])
        }
    }
}
