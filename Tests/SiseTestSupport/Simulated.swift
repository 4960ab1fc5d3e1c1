import Foundation
import SiseSimulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` against a simulator on an ephemeral loopback port and always stops it.
@discardableResult
public func withSimulator<T: Sendable>(
    _ configuration: SimulatorConfiguration = SimulatorConfiguration(),
    _ body: (RunningSimulator) async throws -> T
) async throws -> T {
    let simulator = try await RunningSimulator.start(configuration)
    do {
        let result = try await body(simulator)
        await simulator.stop()
        return result
    } catch {
        await simulator.stop()
        throw error
    }
}

/// Small HTTP helpers for the simulator's `/_sim/` admin endpoints (URLSession is fine for
/// plain HTTP here; the product's client is AsyncHTTPClient).
public enum SimAdmin {
    /// - Parameter exchange: whose switches (`upbit`, `korbit`, `bithumb`; each venue has its own).
    public static func setFaults(_ simulator: RunningSimulator, _ json: String, exchange: String = "upbit") async throws {
        var request = URLRequest(url: URL(string: simulator.baseURL.absoluteString + "/_sim/faults?exchange=\(exchange)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(json.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SimAdminError(what: "faults \(json)") }
    }

    /// `/_sim/stats` as nested dictionaries.
    public static func stats(_ simulator: RunningSimulator, exchange: String = "upbit") async throws -> [String: [String: Int]] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: simulator.baseURL.absoluteString + "/_sim/stats?exchange=\(exchange)")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var out: [String: [String: Int]] = [:]
        for (key, value) in object {
            if let groups = value as? [String: Int] {
                out[key] = groups
            } else if let nested = value as? [String: [String: Int]] {
                for (service, groups) in nested { out["\(key).\(service)"] = groups }
            }
        }
        return out
    }

    /// `POST /_sim/price`: the market's price from now on (nil: back to its walk); the status.
    @discardableResult
    public static func setPrice(
        _ simulator: RunningSimulator,
        _ market: String,
        _ price: Double?,
        exchange: String = "upbit",
        body: String? = nil
    ) async throws -> Int {
        var request = URLRequest(url: URL(string: simulator.baseURL.absoluteString + "/_sim/price?exchange=\(exchange)")!)
        request.httpMethod = "POST"
        request.httpBody = Data((body ?? #"{"market":"\#(market)","price":\#(price.map { String($0) } ?? "null")}"#).utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    public static func get(_ simulator: RunningSimulator, _ pathAndQuery: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: simulator.baseURL.absoluteString + pathAndQuery)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

public struct SimAdminError: Error {
    public let what: String
    public init(what: String) { self.what = what }
}

/// Polls `condition` until it holds or `timeout` passes — tests wait for conditions, not sleeps.
public func waitUntil(timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(25))
    }
    return try await condition()
}

/// Waits for `condition`; records a test issue at the caller when it never holds.
@discardableResult
public func expectEventually(
    timeout: Duration = .seconds(5),
    _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let held = try await waitUntil(timeout: timeout, condition)
    if !held { Issue.record("condition did not hold within \(timeout) \(comment)", sourceLocation: sourceLocation) }
    return held
}

extension SimAdmin {
    /// `POST /_sim/binance` with a JSON object of the Binance switches.
    public static func setBinance(_ simulator: RunningSimulator, _ json: String) async throws {
        var request = URLRequest(url: URL(string: simulator.baseURL.absoluteString + "/_sim/binance")!)
        request.httpMethod = "POST"
        request.httpBody = Data(json.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SimAdminError(what: "binance \(json)") }
    }

    /// `GET /_sim/binance`: `restCalls`, `wsConnects`, `wsOpen`, `usedWeight`.
    public static func binance(_ simulator: RunningSimulator) async throws -> [String: Int] {
        let (_, data) = try await get(simulator, "/_sim/binance")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }
}

extension SimAdmin {
    /// `POST /_sim/fx` with a JSON object of the FX switches (`dunamuDown`, `eximDown`).
    public static func setFX(_ simulator: RunningSimulator, _ json: String) async throws {
        try await post(simulator, "/_sim/fx", json)
    }
}

extension SimAdmin {
    /// `POST path` with a JSON body (a switch set of `/_sim/…`).
    public static func post(_ simulator: RunningSimulator, _ path: String, _ json: String) async throws {
        var request = URLRequest(url: URL(string: simulator.baseURL.absoluteString + path)!)
        request.httpMethod = "POST"
        request.httpBody = Data(json.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SimAdminError(what: "\(path) \(json)") }
    }
}
