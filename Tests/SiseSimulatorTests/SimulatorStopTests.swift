import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SiseSimulator
import Testing

/// `sise serve --demo` ends with its simulator: a browser that went through the demo's log-in
/// provider keeps connections to it — opened ahead of a request (browsers open them
/// speculatively), or kept alive after one — and the process must still end at once.
@Suite struct SimulatorStopTests {
    @Test(arguments: [false, true])
    func stopClosesAnIdleConnectionAndReturnsPromptly(afterARequest: Bool) async throws {
        let simulator = try await RunningSimulator.start()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: simulator.port).get()
        if afterARequest {
            try await channel.writeAndFlush(ByteBuffer(string: "GET /v1/market/all HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        }
        // Then idle: the answer (if any) came, the connection stays open.
        try await Task.sleep(for: .milliseconds(300))
        #expect(channel.isActive)

        let started = ContinuousClock.now
        let stopped = NIOLockedValueBox(false)
        let stopping = Task {
            await simulator.stop()
            stopped.withLockedValue { $0 = true }
        }
        while !stopped.withLockedValue({ $0 }), ContinuousClock.now - started < .seconds(10) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(stopped.withLockedValue { $0 }, "the simulator was still stopping after 10 s")
        #expect(ContinuousClock.now - started < .seconds(5))
        if !stopped.withLockedValue({ $0 }) {
            // The client letting go is what ended it, then: end the test.
            try? await channel.close()
            await stopping.value
            return
        }
        // The server closed the idle connection rather than leaving it to the client.
        try await channel.closeFuture.get()
    }
}
