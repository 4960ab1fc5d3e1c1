import Foundation
import SiseCore

/// The detail screen's 호가 ladder (asks above in blue, bids below in red, sizes beside, Hangul
/// headers aligned by display width) or 체결 tape (KST time, price, size, buy red / sell blue,
/// 체결강도 on top).
struct DepthView {
    let language: Language
    let mode: DepthMode
    let load: DepthLoad?

    func draw(_ frame: inout ScreenFrame, top: Int, left: Int) {
        guard let load else {
            frame.put(UIText.loading(language), row: top, column: left, style: CellStyle(dim: true))
            return
        }
        let f = MarketFormatter(language: language)
        let quote = load.market.quote
        let room = max(2, frame.height - top - 3)
        switch mode {
        case .book:
            frame.put(UIText.orderbookTitle(language), row: top - 1, column: left, style: CellStyle(bold: true))
            guard let book = load.book else {
                let words = load.unreadable ? UIText.orderbookUnavailable(language) : UIText.orderbookInconsistent(language)
                frame.put(words, row: top, column: left, style: CellStyle(dim: true))
                return
            }
            let freshness: String? =
                switch load.state {
                case .live: nil
                case .delayed: UIText.bookDelayed(language)
                case .stale: UIText.bookStale(language, ["at": KSTText.clock(book.timestamp)])
                }
            if let freshness { frame.put(freshness, row: top - 1, column: left + 12, style: CellStyle(foreground: .yellow)) }
            frame.put(UIText.bookAskSize(language), row: top, column: left, width: 12, alignment: .right, style: CellStyle(foreground: .gray))
            frame.put(UIText.bookPrice(language), row: top, column: left + 13, width: 14, alignment: .right, style: CellStyle(foreground: .gray))
            frame.put(UIText.bookBidSize(language), row: top, column: left + 28, width: 12, alignment: .right, style: CellStyle(foreground: .gray))
            let each = max(1, (room - 1) / 2)
            let asks = Array(book.asks.prefix(each).reversed())
            for (i, level) in asks.enumerated() {
                frame.put(NumberText.grouped(level.size, decimals: 4), row: top + 1 + i, column: left, width: 12, alignment: .right)
                frame.put(
                    f.price(level.price, quote: quote),
                    row: top + 1 + i,
                    column: left + 13,
                    width: 14,
                    alignment: .right,
                    style: CellStyle(foreground: .blue)
                )
            }
            for (i, level) in book.bids.prefix(each).enumerated() {
                let row = top + 1 + asks.count + i
                frame.put(
                    f.price(level.price, quote: quote),
                    row: row,
                    column: left + 13,
                    width: 14,
                    alignment: .right,
                    style: CellStyle(foreground: .red)
                )
                frame.put(NumberText.grouped(level.size, decimals: 4), row: row, column: left + 28, width: 12, alignment: .right)
            }
        case .tape:
            let strength =
                TradeTape.strength(load.tape).map { "  " + UIText.tradeStrength(language, ["percent": TradeTape.strengthText($0)]) } ?? ""
            frame.put(UIText.tradesTitle(language) + strength, row: top - 1, column: left, style: CellStyle(bold: true))
            for (i, trade) in load.tape.prefix(room).enumerated() {
                let tone: CellStyle.Color = trade.side == .bid ? .red : .blue
                frame.put(KSTText.clock(trade.timestamp), row: top + i, column: left, width: 9)
                frame.put(
                    f.price(trade.price, quote: quote),
                    row: top + i,
                    column: left + 10,
                    width: 14,
                    alignment: .right,
                    style: CellStyle(foreground: tone)
                )
                frame.put(NumberText.grouped(trade.volume, decimals: 4), row: top + i, column: left + 25, width: 12, alignment: .right)
            }
        }
    }
}
