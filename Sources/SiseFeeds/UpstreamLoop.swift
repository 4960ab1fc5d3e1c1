import NIOPosix

/// The event loop the exchanges' WebSockets live on: a thread of its own, apart from the loops
/// that write to the pages. On the server's loops a feed's reads waited behind every sweep of
/// writes (thousands of pages a turn): a board that collects its socket's frames right before
/// it flushes (`ReadPacer`) gave up waiting while the frames sat unread in the socket, and at
/// 19,800 pages every other flush found nothing — the board published 4.5 batches a second
/// instead of 10, each twice as large. Here a read waits for no page. One thread is plenty for
/// what upstream sends (kilobytes a second per exchange); it is made once and never shut down.
enum UpstreamLoop {
    static let group: MultiThreadedEventLoopGroup = ._makePerpetualGroup(threadNamePrefix: "sise-upstream-", numberOfThreads: 1)
}
