import SiseCore

/// What the faces ask of a board, never waiting for its actor: the published board and its
/// updates, and the viewers whose presence keeps the upstream feed open.
extension LiveBoard {
    // MARK: - Viewers (the idle rule)

    /// A live view opened (a `/ws` client): the feed runs while any is open.
    public nonisolated func viewerArrived() { demand.arrived() }

    /// A live view closed.
    public nonisolated func viewerLeft() { demand.left() }

    /// Runs `body` as a viewer of this board (a face that follows it: `sise watch`, a terminal
    /// board): the feed runs, or wakes, for as long as `body` does.
    public nonisolated func viewing<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        viewerArrived()
        defer { viewerLeft() }
        return try await body()
    }

    /// A one-shot look at the board (an API request): keeps the feed awake, wakes it if idle.
    public nonisolated func touch() { demand.touch() }

    // MARK: - Faces

    /// The latest published board; cheap, never waits for the engine.
    public nonisolated var snapshot: BoardSnapshot { publication.snapshot }

    /// A snapshot now, then coalesced changes; ends when the consumer stops iterating.
    public nonisolated func updates() -> BoardUpdates { publication.updates() }

    public nonisolated var subscriberCount: Int { publication.subscriberCount }

    /// Whether the board has had data at all (an empty board before that means "not loaded",
    /// never "no markets").
    public nonisolated var hasData: Bool { publication.hasData }

    /// Waits until the first board is published, at most `timeout`; false if it was not.
    public nonisolated func waitForData(upTo timeout: Duration) async -> Bool {
        await publication.waitForData(upTo: timeout)
    }
}
