import Foundation
import SiseCharts
import SiseCore

/// Enter on a row: the market's price statistics (the chart joins once SiseCharts exists).
struct DetailView {
    let state: TUIState
    let row: MarketRow?

    func draw(_ frame: inout ScreenFrame) {
        let ko = state.language == .ko
        guard let row else {
            frame.put(ko ? "선택된 종목이 없습니다." : "Nothing selected.", row: 2, column: 2)
            return
        }
        let f = MarketFormatter(language: state.language)
        let t = row.ticker
        let quote = row.id.quote
        let d = f.display(row)
        let tone: CellStyle.Color = t.change == .rise ? .red : (t.change == .fall ? .blue : .none)
        frame.put("\(row.market.name(in: state.language)) \(row.market.symbol)/\(quote)", row: 2, column: 2, style: CellStyle(bold: true))
        frame.put(d.price, row: 3, column: 2, style: CellStyle(foreground: tone, bold: true))
        frame.put("\(d.changeRate)  \(d.changePrice)", row: 3, column: 4 + DisplayWidth.of(d.price), style: CellStyle(foreground: tone))
        let price = { (value: Double) in f.price(value, quote: quote, tick: row.tickSize) }
        var lines: [(String, String)] = [
            (ko ? "시가" : "Open", price(t.openingPrice)),
            (ko ? "고가" : "High", price(t.highPrice)),
            (ko ? "저가" : "Low", price(t.lowPrice)),
            (ko ? "전일종가" : "Prev. close", price(t.prevClosingPrice)),
            (ko ? "거래대금(24h)" : "Value (24h)", d.tradeValue),
            (ko ? "거래량(24h)" : "Volume (24h)", NumberText.grouped(t.tradeVolume24h, decimals: 3) + " " + row.market.symbol),
        ]
        if let high = t.highest52WeekPrice { lines.append((ko ? "52주 최고" : "52w high", price(high) + " (" + (t.highest52WeekDate ?? "-") + ")")) }
        if let low = t.lowest52WeekPrice { lines.append((ko ? "52주 최저" : "52w low", price(low) + " (" + (t.lowest52WeekDate ?? "-") + ")")) }
        if row.market.warning { lines.append((ko ? "유의" : "Warning", ko ? "투자유의 종목" : "investment warning")) }
        if !row.market.cautions.isEmpty { lines.append((ko ? "주의" : "Caution", row.market.cautions.joined(separator: ", "))) }
        for (i, (label, value)) in lines.enumerated() where 5 + i < frame.height - 2 {
            frame.put(label, row: 5 + i, column: 2, width: 16, style: CellStyle(foreground: .gray))
            frame.put(value, row: 5 + i, column: 19, width: max(0, frame.width - 21))
        }
        // The week's chart beside the statistics when there is room, below them otherwise.
        if let chart = state.chart, chart.market == row.id, chart.points.count >= 2 {
            let model = ChartModel(points: chart.points, range: .week, quote: quote)
            let beside = frame.width >= 110
            let top = beside ? 5 : 6 + lines.count
            let left = beside ? 50 : 2
            let rows = max(3, min(12, frame.height - top - 4))
            let columns = max(10, min(60, frame.width - left - 16))
            let tone: CellStyle.Color = model.isRising ? .red : .blue
            for (i, line) in BrailleChart.render(model, columns: columns, rows: rows, language: state.language).enumerated()
            where top + i < frame.height - 2 {
                frame.put(line, row: top + i, column: left, style: CellStyle(foreground: i < rows ? tone : .gray))
            }
        }
        frame.put(ko ? "Esc: 돌아가기 · f: 관심" : "Esc: back · f: favorite", row: frame.height - 2, column: 2, style: CellStyle(dim: true))
    }
}

/// `?`: the keys.
struct HelpView {
    let language: Language

    func draw(_ frame: inout ScreenFrame) {
        let ko = language == .ko
        let lines = ko ? [
            "j/k ↑/↓  이동          g/G  처음/끝        PgUp/PgDn  페이지",
            "1 2 3 4  정렬: 이름 현재가 전일대비 거래대금 (같은 키: 내림→오름→해제)",
            "/        검색 (초성 ㅂㅌ 가능, Esc 지우기)   Enter  상세",
            "f        관심 추가/삭제     F  관심 목록       t  트렌딩",
            "Tab      KRW/BTC/USDT       ?  도움말          q  종료",
        ] : [
            "j/k ↑/↓  move            g/G  top/bottom     PgUp/PgDn  page",
            "1 2 3 4  sort: name price change value (same key: desc → asc → off)",
            "/        search (Hangul initials work, Esc clears)   Enter  detail",
            "f        toggle favorite   F  favorites        t  trending",
            "Tab      KRW/BTC/USDT      ?  help             q  quit",
        ]
        for (i, line) in lines.enumerated() { frame.put(line, row: 2 + i, column: 2) }
    }
}

/// `t`: CoinGecko's trending coins, with KRW prices.
struct TrendingView {
    let language: Language
    let trending: Trending?

    func draw(_ frame: inout ScreenFrame) {
        let ko = language == .ko
        frame.put(ko ? "트렌딩 코인 (CoinGecko) · Esc: 돌아가기" : "Trending coins (CoinGecko) · Esc: back", row: 1, column: 2,
                  style: CellStyle(bold: true))
        guard let trending else {
            frame.put(ko ? "불러오는 중…" : "Loading…", row: 3, column: 2, style: CellStyle(dim: true))
            return
        }
        let f = MarketFormatter(language: language)
        for (i, coin) in trending.coins.enumerated() where 3 + i < frame.height - 1 {
            let change = coin.change24h ?? 0
            let tone: CellStyle.Color = change > 0 ? .red : (change < 0 ? .blue : .none)
            frame.put("\(coin.rank)", row: 3 + i, column: 2, width: 4)
            frame.put("\(coin.name) \(coin.symbol)", row: 3 + i, column: 6, width: 30)
            frame.put(coin.priceKRW.map { f.price($0, quote: "KRW") } ?? "-", row: 3 + i, column: 37, width: 16, alignment: .right)
            frame.put(coin.change24h.map { f.rate($0 / 100) } ?? "-", row: 3 + i, column: 54, width: 9, alignment: .right,
                      style: CellStyle(foreground: tone))
        }
    }
}
