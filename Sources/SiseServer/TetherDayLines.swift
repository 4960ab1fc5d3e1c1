import Foundation
import SiseCharts
import SiseCore
import SiseEngine
import SiseStore
import Synchronization

/// 테더 김프's day (KST) as the board's bar draws it, read from the store once a minute per
/// exchange however many pages ask (the history gains a point a minute; the bar asks every 10 s).
final class TetherDayLines: Sendable {
    private let store: PremiumHistoryStore
    private let drawn = Mutex<[Exchange: (minute: Int64, svg: String)]>([:])

    init(store: PremiumHistoryStore) {
        self.store = store
    }

    func line(_ exchange: Exchange, now: Int64) async -> String {
        let minute = HistoryResolution.minute.bucket(now)
        if let kept = drawn.withLock({ $0[exchange] }), kept.minute == minute { return kept.svg }
        let points = (try? await store.points(.tether(exchange), resolution: .minute, from: PremiumHistory.startOfKSTDay(now), to: now)) ?? []
        let svg = SVGChart.sparkline(points.map(\.value), width: 72, height: 20)
        drawn.withLock { $0[exchange] = (minute, svg) }
        return svg
    }
}
