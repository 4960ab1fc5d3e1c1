import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SiseSimulator
import Testing

/// `sise serve --demo` ends with its simulator: a browser that went through the demo's log-in
/// provider keeps an idle keep-alive connection to it, and the process must still end at once.
@Suite struct SimulatorStopTests {
    @Test func stopEndsAnIdleKeepAliveConnectionAndReturnsPromptly() async throws {
        let simulator = try await RunningSimulator.start()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: simulator.port).get()
        // A connection opened ahead of a request (browsers open them speculatively), then idle.
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
