import Foundation
import Yams

/// The JSON Schemas an OpenAPI 3.1 document declares, for tools that answer what a route of it
/// answers: the route's 200 schema, with every component it reaches carried along (so its
/// `#/components/schemas/…` references resolve inside the tool's own schema). One description of
/// each shape — the API's, which the contract suite holds the server to — and no second copy.
public struct OpenAPISchemas: Sendable {
    let document: JSONValue

    public init(yaml: String) throws {
        guard let parsed = try Yams.load(yaml: yaml) else { throw MCPError.internalError("The OpenAPI document is empty.") }
        document = try Self.json(parsed, depth: 0)
    }

    /// The schema of `method path`'s `status` answer (nil: the document gives none).
    public func response(_ path: String, method: String = "get", status: String = "200") -> JSONValue? {
        guard var answer = document["paths"]?[path]?[method]?["responses"]?[status] else { return nil }
        if let reference = answer["$ref"]?.string, let name = reference.split(separator: "/").last {
            answer = document["components"]?["responses"]?[String(name)] ?? .null
        }
        return answer["content"]?["application/json"]?["schema"]
    }

    /// A component schema by name (`MarketRow`).
    public func component(_ name: String) -> JSONValue? { document["components"]?["schemas"]?[name] }

    /// `schema` made self-contained: the component schemas it reaches, transitively, under
    /// `components.schemas`, where its references point.
    public func standalone(_ schema: JSONValue) -> JSONValue {
        var reached: [String: JSONValue] = [:]
        var pending = Self.references(schema)
        while let name = pending.popLast() {
            guard reached[name] == nil, let found = component(name) else { continue }
            reached[name] = found
            pending += Self.references(found)
        }
        guard case .object(var members) = schema, !reached.isEmpty else { return schema }
        members["components"] = ["schemas": .object(reached)]
        return .object(members)
    }

    /// The component names a schema refers to.
    static func references(_ schema: JSONValue) -> [String] {
        switch schema {
        case .object(let members):
            var names = members.values.flatMap(references)
            if let reference = members["$ref"]?.string, reference.hasPrefix("#/components/schemas/") {
                names.append(String(reference.dropFirst("#/components/schemas/".count)))
            }
            return names
        case .array(let items): return items.flatMap(references)
        default: return []
        }
    }

    /// YAML's loaded values as JSON (the document is the project's own; its depth is bounded anyway).
    static func json(_ value: Any, depth: Int) throws -> JSONValue {
        guard depth < 64 else { throw MCPError.internalError("The OpenAPI document nests too deep.") }
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(Int64(number))
        case let number as Double: return .double(number)
        case let items as [Any]: return .array(try items.map { try json($0, depth: depth + 1) })
        case let members as [String: Any]: return .object(try members.mapValues { try json($0, depth: depth + 1) })
        case let members as [AnyHashable: Any]:
            return .object(
                Dictionary(try members.map { (String(describing: $0.key), try json($0.value, depth: depth + 1)) }, uniquingKeysWith: { a, _ in a })
            )
        default: return .null
        }
    }
}
