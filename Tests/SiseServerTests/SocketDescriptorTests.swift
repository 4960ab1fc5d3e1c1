import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import Synchronization
import Testing

@testable import SiseServer

/// A page's frames sent straight to its socket (`PageWire`, `SocketDescriptor`): the descriptor is
/// taken only when it is certainly the channel's, and bytes sent directly and bytes written
/// through NIO's pipeline reach the other end whole and in the order they were written.
@Suite struct SocketDescriptorTests {
    @Test func theNumberIsReadFromNIOsDescriptionOrNotAtAll() {
        #expect(SocketDescriptor.number(in: "SocketChannel { BaseSocket { fd=17 }, active = true }") == 17)
        #expect(SocketDescriptor.number(in: "BaseSocket { fd=0 }") == 0)
        for text in ["SocketChannel { active = true }", "fd=", "fd=-3", "fd=x1", "fd=99999999999999", "EmbeddedChannel"] {
            #expect(SocketDescriptor.number(in: text) == nil, "\(text)")
        }
    }

    @Test func onlyASocketWithTheChannelsOwnAddressesIsTaken() throws {
        #expect(SocketDescriptor.of(EmbeddedChannel()) == nil)
        try Self.withConnection { server, client, _ in
            let fd = try server.eventLoop.submit { SocketDescriptor.of(server) }.wait()
            #expect(fd != nil)
            let clientFD = try client.eventLoop.submit { SocketDescriptor.of(client) }.wait()
            #expect(clientFD != nil && clientFD != fd)
        }
    }

    @Test func directAndPipelineWritesArriveWholeAndInOrder() throws {
        try Self.withConnection { server, _, received in
            let sent = try Self.onDirectWire(of: server) { wire, results in
                // Frames of 64 KB: the kernel's buffer fills and NIO's queue takes the rest. The
                // pipeline's own writes (another handler's frames) come between them: one not yet
                // flushed while the socket still has room (what follows must wait behind it), one
                // once the queue is in use.
                for index in 0..<64 {
                    if index == 2 || index == 40 {
                        server.pipeline.syncOperations.write(NIOAny(Self.frame(index)), promise: nil)
                        continue
                    }
                    results.append(wire.write(Self.frame(index)))
                    wire.flush()
                }
                // 4 MB written at once: more than the kernel takes, so the queue was used.
                results.append(!server.isWritable)
            }
            #expect(sent.allSatisfy { $0 })
            Self.expectFrames(0..<64, arriveAt: received)
        }
    }

    /// Frames written together (one `sendmsg` for up to 16) arrive whole and in order — across the
    /// moment the kernel's buffer fills mid-batch, the rest of that frame and every later one
    /// queued behind in NIO's pipeline, with single writes and the pipeline's own between them.
    @Test func gatheredWritesArriveWholeAndInOrder() throws {
        try Self.withConnection { server, _, received in
            let sent = try Self.onDirectWire(of: server) { wire, results in
                results.append(wire.write((0..<3).map(Self.frame)))
                results.append(wire.write(Self.frame(3)))
                // 60 frames of 64 KB in one call: more than one send gathers, and more than the
                // kernel takes.
                results.append(wire.write((4..<64).map(Self.frame)))
                server.pipeline.syncOperations.write(NIOAny(Self.frame(64)), promise: nil)
                results.append(wire.write((65..<70).map(Self.frame)))
                wire.flush()
                results.append(!server.isWritable)
            }
            #expect(sent.allSatisfy { $0 }, "\(sent)")
            Self.expectFrames(0..<70, arriveAt: received)
        }
    }

    /// On the server's loop: a `PageWire` first in its pipeline, sending straight to the socket,
    /// handed to `body` with the results so far (whether it sends directly, then what `body` adds).
    static func onDirectWire(of server: any Channel, _ body: @escaping @Sendable (PageWire, inout [Bool]) throws -> Void) throws -> [Bool] {
        let wire = PageWire()
        return try server.eventLoop.submit { () -> [Bool] in
            try server.pipeline.syncOperations.addHandler(wire, position: .first)
            wire.sendDirectly()
            var results = [wire.sendsDirectly]
            try body(wire, &results)
            return results
        }.wait()
    }

    /// Waits (up to 20 s) for `frames` to have reached the other end, whole and in order.
    static func expectFrames(_ frames: Range<Int>, arriveAt received: Received) {
        let expected = frames.reduce(into: ByteBuffer()) { all, index in
            var frame = frame(index)
            all.writeBuffer(&frame)
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while received.bytes.withLock({ $0.readableBytes }) < expected.readableBytes, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(received.bytes.withLock { $0 } == expected)
    }

    /// A frame of 64 KB whose every byte says which frame it is.
    static func frame(_ index: Int) -> ByteBuffer {
        ByteBuffer(repeating: UInt8(index), count: 65_536)
    }

    /// A loopback TCP connection between two NIO channels; what reaches the client is collected.
    static func withConnection(_ body: (_ server: any Channel, _ client: any Channel, _ received: Received) throws -> Void) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let accepted = group.next().makePromise(of: (any Channel).self)
        // Small socket buffers on both ends: megabytes written at once certainly overflow the
        // kernel (loopback's own grow to several) and NIO's queue is used.
        let listener = try ServerBootstrap(group: group)
            .childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: 65_536)
            .childChannelInitializer { channel in
                accepted.succeed(channel)
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        defer { try? listener.close().wait() }
        let received = Received()
        let client = try ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 65_536)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(received: received)) }
            }
            .connect(to: try #require(listener.localAddress)).wait()
        defer { try? client.close().wait() }
        let server = try accepted.futureResult.wait()
        try body(server, client, received)
    }
}

/// The bytes a channel has read.
final class Received: Sendable {
    let bytes = Mutex(ByteBuffer())
}

/// Collects every byte a channel reads.
private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let received: Received
    init(received: Received) { self.received = received }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.bytes.withLock { _ = $0.writeBuffer(&bytes) }
    }
}
