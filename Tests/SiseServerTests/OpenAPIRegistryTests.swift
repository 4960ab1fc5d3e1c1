import Foundation
import SiseCore
import SiseFeeds
import Testing

/// The OpenAPI description names the exchanges once, in `components.schemas.Exchange`, and that
/// list is the registry's: an exchange added to Sise cannot be missing from the description, and
/// no parameter or field keeps a list of its own.
@Suite struct OpenAPIRegistryTests {
    static let spec: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SiseServer/Resources/openapi.yaml")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }()

    @Test func theExchangeSchemaIsTheRegistry() throws {
        let lines = Self.spec.split(separator: "\n", omittingEmptySubsequences: false)
        let ids = ExchangeRegistry.all.map(\.id)
        // Every enum that lists an exchange id: exactly one, the schema's, in the registry's order.
        let listing = lines.filter { line in line.contains("enum:") && ids.contains { line.contains($0) } }
        #expect(listing.count == 1, "exchange lists: \(listing)")
        let schema = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Exchange:" })
        let enumLine = try #require(lines[schema...].first { $0.contains("enum:") })
        #expect(enumLine.trimmingCharacters(in: .whitespaces) == "enum: [\(ids.joined(separator: ", "))]")
        #expect(lines[schema..<lines.index(schema, offsetBy: 5)].contains(enumLine), "the enum belongs to the Exchange schema")
    }

    /// A comma-separated list of these ids, as a query's pattern writes it (`CommaList`: no empty
    /// item, at most as many items as there are ids).
    static func listPattern(_ ids: [String]) -> String {
        let one = "(" + ids.joined(separator: "|") + ")"
        return "pattern: \"^\(one)(,\(one)){0,\(ids.count - 1)}$\""
    }

    @Test func everyExchangeParameterAndFieldRefersToIt() {
        let lines = Self.spec.split(separator: "\n")
        // `name: exchange` parameters and `exchange:` fields with an inline schema.
        let uses = lines.filter {
            $0.contains("name: exchange,") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("exchange: {") || $0.contains(" exchange: { ")
        }
        #expect(uses.count >= 16, "found \(uses.count)")
        // A list of exchanges spells the registry's ids in its pattern.
        let own = uses.filter {
            !$0.contains("$ref: '#/components/schemas/Exchange'") && !$0.contains(Self.listPattern(Exchange.allCases.map(\.rawValue)))
        }
        #expect(own.isEmpty, "exchange schemas that do not refer to components.schemas.Exchange:\n\(own.joined(separator: "\n"))")
    }

    /// Every venue parameter and field (the matrix, the history, alert rules) lists exactly the
    /// registry's global venues.
    @Test func theVenueParameterIsTheRegistrysVenues() throws {
        let lines = Self.spec.split(separator: "\n").filter {
            $0.contains("name: venue,") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("venue: {")
        }
        #expect(lines.count >= 4, "found \(lines.count)")
        for line in lines {
            let ids = GlobalVenue.allCases.map(\.rawValue)
            #expect(line.contains("enum: [" + ids.joined(separator: ", ") + "]") || line.contains(Self.listPattern(ids)), "\(line)")
        }
    }
}
