import Foundation
import SiseMCP
import Synchronization
import Testing

@testable import sise

/// `sise mcp`'s tools read their arguments from the commands' own definitions, and a call's
/// arguments become a command line no value can steer.
@Suite struct MCPArgumentsTests {
    static let help = (try? JSONValue.decode(Data(SiseCommand._dumpHelp().utf8), maxDepth: 32)) ?? .null

    static func arguments(_ name: String) throws -> MCPArguments {
        MCPArguments(try #require(MCPToolCatalog.tools.first { $0.name == name }), help: help)
    }

    @Test func theSchemaIsTheCommandsOwnOptions() throws {
        let markets = try Self.arguments("markets").schema(paged: true)
        let properties = try #require(markets["properties"]?.object)
        #expect(Set(properties.keys) == ["exchange", "quote", "sort", "order", "search", "limit", "lang", "cursor"])
        #expect(properties["quote"]?["description"]?.string?.contains("KRW, BTC or USDT") == true, "the command's help text")
        #expect(properties["lang"]?["enum"] == ["ko", "en"] && markets["additionalProperties"] == false)
        let price = try Self.arguments("price").schema(paged: false)
        #expect(price["properties"]?["symbols"]?["type"] == "array" && price["required"] == ["symbols"], "a repeating positional, required")
        #expect(
            MCPToolCatalog.tools.allSatisfy { spec in spec.arguments.allSatisfy { (try? Self.arguments(spec.name).arguments[$0]) != nil } },
            "every argument a tool names is one its command defines"
        )
    }

    @Test func aCallBecomesACommandLineNoValueCanSteer() throws {
        let price = try Self.arguments("price")
        #expect(
            try price.commandLine(["symbols": ["BTC", "--data-dir=/etc"], "exchange": "korbit"]).get() == [
                "--exchange=korbit", "--", "BTC", "--data-dir=/etc",
            ]
        )
        let markets = try Self.arguments("markets")
        #expect(try markets.commandLine(["limit": 5, "search": "ㅂㅌ"]).get() == ["--search=ㅂㅌ", "--limit=5"])
        let add = try Self.arguments("alerts_add")
        #expect(
            try add.commandLine(["value": "-10", "type": "pnl-below", "market": "holdings", "recurring": true]).get() == [
                "--recurring", "--", "holdings", "pnl-below", "-10",
            ],
            "positionals in the command's order, a negative value after --"
        )
        #expect(try markets.commandLine(["limit": .double(5)]).get() == ["--limit=5"], "a whole number as an integer")
        for bad: [String: JSONValue] in [
            ["colour": "red"], ["sort": "\u{1b}[31m"], ["search": .string(String(repeating: "a", count: 201))], ["limit": .double(.nan)],
            ["search": ["a": 1]], ["lang": "fr"],
        ] {
            #expect(throws: MCPArguments.ArgumentProblem.self, "\(bad)") { try markets.commandLine(bad).get() }
        }
        #expect(throws: MCPArguments.ArgumentProblem.self) { try price.commandLine([:]).get() }
    }

    @Test func listsComeInPagesThatFit() {
        let items = (0..<250).map { JSONValue.int(Int64($0)) }
        let first = MCPCommandRunner.page(items, from: 0)
        #expect(first.items.count == 100 && first.next == 100)
        #expect(MCPCommandRunner.page(items, from: 200).next == nil && MCPCommandRunner.page(items, from: 200).items.count == 50)
        #expect(MCPCommandRunner.page(items, from: 999).items.isEmpty)
        let big = (0..<10).map { _ in JSONValue.string(String(repeating: "x", count: 100_000)) }
        #expect(MCPCommandRunner.page(big, from: 0).items.count == 2, "256 KB a page")
    }

    @Test func callsAreBoundedAtOnceAndPerMinute() {
        let clock = Mutex<Int64>(1_000_000)
        let limiter = MCPCallLimiter(concurrent: 2, perMinute: 3, now: { clock.withLock { $0 } })
        #expect(limiter.admit() == .admitted && limiter.admit() == .admitted)
        #expect(limiter.admit() == .busy)
        limiter.release()
        #expect(limiter.admit() == .admitted)
        limiter.release()
        #expect(limiter.admit() == .wait(seconds: 60))
        clock.withLock { $0 += 60_001 }
        #expect(limiter.admit() == .admitted)
    }
}
