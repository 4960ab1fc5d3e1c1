import Foundation

/// A volume spike read from the ticker stream's rolling 24-hour traded value (거래대금) alone —
/// no candles polled: how many times its usual pace a market traded over the last `span`.
///
/// With V(t) the value traded in (t − 24 h, t], V(t) − V(t − N) is what traded in the last N
/// minutes less what left the 24-hour window meanwhile; that leaving part is taken at the pace
/// of the 24 hours before the window, V(t − N) · N / 1440. The usual pace is the same trailing
/// 24 hours: an N-minute slice of V(t − N). So the ratio is
///
///     1 + (V(t) − V(t − N)) / V(t − N) · 1440 / N
///
/// (N is the time the samples actually cover: at least the window, more on a quiet market.)
///
/// (1.0: the usual pace; 3.0: three times it). There is no reading until the stream has covered
/// a whole window (after a start or a silence of two windows: a warm-up, never a guess).
/// Samples are kept at most one per 1/60 of the window: a window costs ≤ 61 samples.
struct VolumeWindow: Sendable {
    static let day: Double = 1_440
    let span: Int64
    private var samples: [(at: Int64, value: Double)] = []

    init(span: Int64) {
        self.span = span
    }

    /// The rolling 24-hour value `value` at `at` (epoch ms): the ratio, or nil while the window is
    /// not covered (or the market traded nothing in the trailing day).
    mutating func add(_ value: Double, at: Int64) -> Double? {
        guard value.isFinite, value >= 0, at >= 0 else { return nil }
        if let last = samples.last, at < last.at { return nil }
        let spacing = max(1_000, span / 60)
        if let last = samples.last, at - last.at < spacing, samples.count > 1 {
            // Within one spacing of the last sample: it moves forward (the newest value counts).
            samples[samples.count - 1] = (at, value)
        } else {
            samples.append((at, value))
        }
        // A quiet market's ticks may be a window apart (the pace is then taken over the time they
        // cover); a silence of two windows breaks the chain: a reading over it would not be
        // about the window any more.
        if samples.count > 1, samples[samples.count - 1].at - samples[samples.count - 2].at > 2 * span {
            samples.removeFirst(samples.count - 1)
            return nil
        }
        let cutoff = at - span
        // Keep exactly one sample at or before the cutoff: the window's start.
        var drop = 0
        while drop + 1 < samples.count, samples[drop + 1].at <= cutoff { drop += 1 }
        if drop > 0 { samples.removeFirst(drop) }
        guard let first = samples.first, first.at <= cutoff, first.value > 0 else { return nil }
        // The window's start is the last sample at or before the cutoff: a little longer than the
        // window on a quiet market, so the pace is taken over the time actually covered.
        let minutes = Double(at - first.at) / 60_000
        return 1 + (value - first.value) / first.value * Self.day / minutes
    }
}
