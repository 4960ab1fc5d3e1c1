import Foundation
import SiseCore
import SiseEngine

/// The bottom line: exchange, connectivity, data age, last update (KST), DEMO, key hints.
struct StatusBar {
    let state: TUIState
    let status: ConnectivityStatus
    let now: Int64

    func draw(_ frame: inout ScreenFrame) {
        let ko = state.language == .ko
        let y = frame.height - 1
        frame.style(row: y) { $0 = CellStyle(foreground: .white, background: .gray) }
        let label: String
        let tone: CellStyle.Color
        switch status.state {
        case .live: (label, tone) = (ko ? "실시간" : "live", .green)
        case .delayed: (label, tone) = (ko ? "지연" : "delayed", .yellow)
        case .offline: (label, tone) = (ko ? "오프라인" : "offline", .red)
        case .idle: (label, tone) = (ko ? "대기" : "idle", .yellow)
        }
        var x = frame.put(" upbit ", row: y, column: 0, style: CellStyle(foreground: .white, background: .gray, bold: true))
        x = frame.put(" \(label) ", row: y, column: x, style: CellStyle(foreground: .white, background: tone, bold: true))
        if let last = status.lastDataAt {
            let age = max(0, (now - last) / 1_000)
            let time = Self.kst(last)
            x = frame.put(" \(time) KST · " + (ko ? "\(age)초 전" : "\(age)s ago") + " ", row: y, column: x,
                          style: CellStyle(foreground: .white, background: .gray))
        }
        if state.demo { x = frame.put(" DEMO ", row: y, column: x, style: CellStyle(background: .yellow, bold: true)) }
        if let message = state.message {
            x = frame.put(" " + message + " ", row: y, column: x, style: CellStyle(foreground: .yellow, background: .gray))
        }
        let hints = ko ? "1-4 정렬 / 검색 f 관심 F 관심목록 ⏎ 상세 ? 도움말 q 종료 "
                       : "1-4 sort / search f fav F favs ⏎ detail ? help q quit "
        let start = max(x + 1, frame.width - DisplayWidth.of(hints))
        if start + 4 < frame.width {
            frame.put(hints, row: y, column: start, width: frame.width - start, style: CellStyle(foreground: .white, background: .gray))
        }
    }

    static func kst(_ ms: Int64) -> String {
        let seconds = (ms / 1_000 + 9 * 3_600) % 86_400
        return String(format: "%02d:%02d:%02d", seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
    }
}
