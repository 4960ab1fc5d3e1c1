import Foundation
import SiseCore
import SiseMCP

/// A tool's arguments as its command defines them: the input schema is read from the command's
/// own definition (`--experimental-dump-help`'s description of each option, its help text, its
/// allowed values), and a call's arguments become the command line it runs.
struct MCPArguments: Sendable {
    struct Argument: Sendable {
        let name: String
        let positional: Bool
        let flag: Bool
        let repeating: Bool
        let required: Bool
        let help: String
        let values: [String]?
    }

    /// Every argument a call may give, by name (the command's, and `lang`).
    let arguments: [String: Argument]
    let order: [String]

    /// The longest value a call may give (a market, a search, a number).
    static let maxValueLength = 200

    init(_ spec: MCPToolSpec, help: JSONValue) {
        var command = help["command"]
        for word in spec.command {
            command = command?["subcommands"]?.array?.first { $0["commandName"]?.string == word }
        }
        var found: [String: Argument] = [:]
        for definition in command?["arguments"]?.array ?? [] {
            guard let name = definition["preferredName"]?["name"]?.string ?? definition["valueName"]?.string,
                spec.arguments.contains(name) || name == "lang"
            else { continue }
            let kind = definition["kind"]?.string
            found[name] = Argument(
                name: name,
                positional: kind == "positional",
                flag: kind == "flag",
                repeating: definition["isRepeating"] == true,
                required: definition["isOptional"] != true || spec.requires.contains(name),
                help: definition["abstract"]?.string ?? "",
                values: name == "lang" ? Language.allCases.map(\.rawValue) : definition["allValues"]?.array?.compactMap(\.string)
            )
        }
        arguments = found
        order = spec.arguments.filter { found[$0] != nil } + ["lang"]
    }

    /// The arguments' JSON Schema (an object; `cursor` added for answers served in pages).
    func schema(paged: Bool, confirm: Bool = false) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for name in order {
            guard let argument = arguments[name] else { continue }
            var value: [String: JSONValue] =
                argument.flag
                ? ["type": "boolean"]
                : argument.values.map { ["type": "string", "enum": .array($0.map(JSONValue.string))] }
                    ?? ["type": ["string", "number"], "maxLength": .int(Int64(Self.maxValueLength))]
            if argument.repeating && !argument.flag {
                value = ["type": "array", "items": .object(value), "maxItems": 50]
            }
            value["description"] = .string(argument.help)
            properties[name] = .object(value)
        }
        if paged { properties["cursor"] = ["type": "string", "description": "The nextCursor of an earlier page."] }
        if confirm {
            properties["confirm"] = [
                "type": "boolean", "description": "true once the user has confirmed this change (without it, nothing is changed).",
            ]
        }
        let required = order.filter { arguments[$0]?.required == true }
        return [
            "type": "object", "properties": .object(properties), "required": .array(required.map(JSONValue.string)), "additionalProperties": false,
        ]
    }

    /// The command line for a call's arguments (options as `--name=value`, positionals after
    /// `--`: no value can pass for an option), or the reason it cannot be one.
    func commandLine(_ given: [String: JSONValue]) -> Result<[String], ArgumentProblem> {
        var options: [String] = []
        var positionals: [String] = []
        if let unknown = given.keys.sorted().first(where: { $0 != "cursor" && $0 != "confirm" && arguments[$0] == nil }) {
            return .failure(.unknown(unknown, order))
        }
        // In the command's order: its positionals are read in the order it defines them.
        for name in order {
            guard let value = given[name], let argument = arguments[name] else { continue }
            if argument.flag {
                guard case .bool(let on) = value else { return .failure(.invalid(name)) }
                if on { options.append("--" + name) }
                continue
            }
            let items = argument.repeating ? (value.array ?? [value]) : [value]
            guard items.count <= 50 else { return .failure(.invalid(name)) }
            for item in items {
                guard let text = Self.text(item) else { return .failure(.invalid(name)) }
                if let values = argument.values, !values.contains(text) { return .failure(.invalid(name)) }
                if argument.positional { positionals.append(text) } else { options.append("--\(name)=\(text)") }
            }
        }
        for name in order where arguments[name]?.required == true && given[name] == nil { return .failure(.missing(name)) }
        return .success(options + (positionals.isEmpty ? [] : ["--"] + positionals))
    }

    /// A value as the command line takes it: text or a number, short, no control characters.
    static func text(_ value: JSONValue) -> String? {
        let text: String
        switch value {
        case .string(let given): text = given
        case .int(let number): text = String(number)
        case .double(let number) where number.isFinite:
            text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: return nil
        }
        guard !text.isEmpty, text.count <= maxValueLength, ControlCharacters.first(in: text) == nil else { return nil }
        return text
    }

    enum ArgumentProblem: Error {
        case unknown(String, [String])
        case invalid(String)
        case missing(String)

        func message(_ language: Language) -> String {
            switch self {
            case .unknown(let name, let known): MCPWords.unknownArgument(language, ["name": name, "known": known.joined(separator: ", ")])
            case .invalid(let name): MCPWords.invalidArgument(language, ["name": name])
            case .missing(let name): MCPWords.missingArgument(language, ["name": name])
            }
        }
    }
}
