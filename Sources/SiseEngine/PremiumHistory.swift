import Foundation
import ServiceLifecycle
import SiseCore
import Synchronization

/// The market's 김프 through the day, per exchange: the median premium of the top 20 KRW coins
/// by trade value, sampled every minute and kept from 00:00 KST (the header's small chart).
public final class PremiumHistory: Service, Sendable {
    public struct Point: Sendable, Equatable {
        /// Epoch ms.
        public let at: Int64
        public let value: Double
    }

    private let boards: ExchangeBoards
    private let feed: PremiumFeed
    private let interval: Duration
    private let now: @Sendable () -> Int64
    /// What the sampling waits on between points.
    private let pace: any MonotonicClock
    private let points = Mutex<[Exchange: [Point]]>([:])

    public init(
        boards: ExchangeBoards,
        feed: PremiumFeed,
        interval: Duration = .seconds(60),
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds,
        pace: any MonotonicClock = .system
    ) {
        self.boards = boards
        self.feed = feed
        self.interval = interval
        self.now = now
        self.pace = pace
    }

    /// Today's points (KST) of `exchange`, oldest first.
    public func today(_ exchange: Exchange) -> [Point] {
        let start = Self.startOfKSTDay(now())
        return points.withLock { ($0[exchange] ?? []).filter { $0.at >= start } }
    }

    /// Takes one sample of every exchange whose board has data.
    public func sample() {
        let at = now()
        let inputs = feed.inputs
        let start = Self.startOfKSTDay(at)
        for (exchange, board) in boards.all {
            guard let value = KimchiPremium.marketPremium(board.snapshot.rows(quote: .krw), premium: inputs.premium) else { continue }
            points.withLock { all in
                var list = (all[exchange] ?? []).filter { $0.at >= start }
                list.append(Point(at: at, value: value))
                all[exchange] = list
            }
        }
    }

    /// Samples every `interval` until the service group shuts down (the wait is cut short).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                self.sample()
                do { try await self.pace.sleep(for: self.interval) } catch { return }
            }
        }
    }

    /// 00:00 in Korea (UTC+9, no daylight saving) of the day holding `ms`.
    public static func startOfKSTDay(_ ms: Int64) -> Int64 {
        let offset: Int64 = 9 * 3_600_000
        let day: Int64 = 86_400_000
        return ((ms + offset) / day) * day - offset
    }
}
