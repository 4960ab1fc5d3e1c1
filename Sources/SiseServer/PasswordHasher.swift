import Foundation
import HummingbirdBcrypt
import NIOPosix

/// bcrypt (cost 12) off the async threads: hashing and checking take ~250 ms of CPU each, so
/// they run on NIO's blocking thread pool, never on an event loop or the cooperative pool.
public struct PasswordHasher: Sendable {
    public var cost: UInt8 = 12

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// bcrypt's own comparison; a missing hash is checked against a stand-in so an unknown
    /// login costs the same time as a wrong password.
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash ?? Self.standIn) }
        return matches && hash != nil
    }

    /// A real bcrypt hash (cost 12) of a random secret nobody knows, made once on first use.
    static let standIn = Bcrypt.hash(UUID().uuidString + UUID().uuidString, cost: 12)
}
