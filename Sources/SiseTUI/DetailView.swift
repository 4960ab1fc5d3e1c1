import Foundation
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

/// `t`: CoinGecko trending arrives with the coin-info work; until then the screen says so.
struct TrendingView {
    let language: Language

    func draw(_ frame: inout ScreenFrame) {
        frame.put(language == .ko ? "트렌딩(CoinGecko)은 코인정보 기능과 함께 제공됩니다. Esc: 돌아가기"
                                  : "Trending (CoinGecko) arrives with the coin-info feature. Esc: back",
                  row: 2, column: 2, style: CellStyle(dim: true))
    }
}
