import Foundation
import SiseCore
import SiseEngine

/// The bottom line: exchange, connectivity, data age, last update (KST), DEMO, key hints.
struct StatusBar {
    let state: TUIState
    let status: ConnectivityStatus
    let now: Int64

    func draw(_ frame: inout ScreenFrame) {
        let y = frame.height - 1
        frame.style(row: y) { $0 = CellStyle(foreground: .white, background: .gray) }
        let label = status.state.label(state.language)
        let tone = CellStyle.color(status.state.tone)
        var x = frame.put(" \(state.exchange.displayName) ", row: y, column: 0, style: CellStyle(foreground: .white, background: .gray, bold: true))
        x = frame.put(" \(label) ", row: y, column: x, style: CellStyle(foreground: .white, background: tone, bold: true))
        if let last = status.lastDataAt {
            let age = max(0, (now - last) / 1_000)
            let time = KSTText.clock(last)
            x = frame.put(
                " \(time) KST · " + UIText.ageSeconds(state.language, ["seconds": String(age)]) + " ",
                row: y,
                column: x,
                style: CellStyle(foreground: .white, background: .gray)
            )
        }
        if state.demo { x = frame.put(" DEMO ", row: y, column: x, style: CellStyle(background: .yellow, bold: true)) }
        if let typed = state.alertPrompt {
            x = frame.put(
                " " + UIText.tuiAlertPrompt(state.language) + typed + "▏ ",
                row: y,
                column: x,
                style: CellStyle(foreground: .white, background: .blue)
            )
            return
        }
        if let message = state.message {
            x = frame.put(" " + message + " ", row: y, column: x, style: CellStyle(foreground: .yellow, background: .gray))
        }
        let hints = state.screen == .ranking ? UIText.tuiRankingHints(state.language) : UIText.tuiHints(state.language)
        let start = max(x + 1, frame.width - DisplayWidth.of(hints))
        if start + 4 < frame.width {
            frame.put(hints, row: y, column: start, width: frame.width - start, style: CellStyle(foreground: .white, background: .gray))
        }
    }
}
