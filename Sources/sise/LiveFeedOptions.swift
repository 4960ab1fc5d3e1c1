import ArgumentParser
import Foundation

/// How a live face (serve, tui, watch) judges its feed.
struct LiveFeedOptions: ParsableArguments {
    @Option(help: "Seconds without a data frame before the board says delayed, polls REST and reconnects (default 5).")
    var silence: Double = 5

    var silenceDuration: Duration { .milliseconds(Int64((silence * 1_000).rounded())) }

    func validate() throws {
        guard silence.isFinite, (0.5...300).contains(silence) else {
            throw ValidationError("--silence must be between 0.5 and 300 seconds, not '\(silence)'.")
        }
    }
}
