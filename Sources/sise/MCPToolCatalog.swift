import SiseCore

/// The tools `sise mcp` offers: each is a command of this CLI run with `--json` (so a tool
/// answers exactly what `sise … --json` prints), the arguments an assistant may give it (the
/// command's own options, by their names), and the API route whose 200 schema describes the
/// answer (the one description of that shape, `openapi.yaml`).
struct MCPToolSpec: Sendable {
    let text: MCPToolText
    /// The tool's name: the command's words with `_` (`premium_matrix`).
    let name: String
    /// The command's words after `sise`.
    let command: [String]
    /// Flags every call passes (`--matrix`).
    let fixed: [String]
    /// The options and positional arguments an assistant may give, by the command's names.
    let arguments: [String]
    /// The API route that answers the same JSON (nil: none describes it yet).
    let route: String?
    /// The property of the route's answer the command prints (`rows`: the ranking's page), if
    /// it prints a part.
    let part: String?

    /// What a call may do: read (the default), or add or remove something of the user's — those
    /// run only with `confirm: true`, as the tool's annotations say.
    let effect: Effect
    /// It reads or writes the terminal's own data (the local owner's portfolio and alerts).
    var terminalData: Bool { ["portfolio", "tax", "alerts", "alerts_add"].contains(name) }
    /// Arguments the tool needs though the command does not (without them it answers another shape).
    let requires: [String]
    /// The answer's status code in the route (`201` for what a POST adds).
    let status: String
    let method: String

    enum Effect: Sendable {
        case read
        case add
        case remove
    }

    init(
        _ text: MCPToolText,
        _ command: [String],
        name: String? = nil,
        fixed: [String] = [],
        arguments: [String],
        route: String?,
        part: String? = nil,
        effect: Effect = .read,
        requires: [String] = [],
        method: String = "get",
        status: String = "200"
    ) {
        self.text = text
        self.name = name ?? command.joined(separator: "_") + fixed.map { "_" + $0.dropFirst(2) }.joined()
        self.effect = effect
        self.requires = requires
        self.method = method
        self.status = status
        self.command = command
        self.fixed = fixed
        self.arguments = arguments
        self.route = route
        self.part = part
    }
}

enum MCPToolCatalog {
    /// The public tools: market data, no account.
    static let tools: [MCPToolSpec] = [
        MCPToolSpec(.markets, ["markets"], arguments: ["exchange", "quote", "sort", "order", "search", "limit"], route: "/api/markets"),
        MCPToolSpec(.price, ["price"], arguments: ["symbols", "exchange"], route: "/api/markets"),
        MCPToolSpec(.compare, ["compare"], arguments: ["symbols", "sort"], route: "/api/compare"),
        MCPToolSpec(
            .premiumMatrix,
            ["premium"],
            fixed: ["--matrix"],
            arguments: ["symbols", "venue", "sort", "limit"],
            route: "/api/premium/matrix"
        ),
        MCPToolSpec(.tetherPremium, ["premium"], name: "tether_premium", fixed: ["USDT"], arguments: [], route: "/api/premium/usdt"),
        MCPToolSpec(
            .executablePremium,
            ["premium"],
            name: "executable_premium",
            arguments: ["symbols", "amount", "exchange", "venue"],
            route: "/api/premium/executable",
            requires: ["symbols", "amount"]
        ),
        MCPToolSpec(.wallets, ["wallets"], arguments: ["symbol", "exchange"], route: "/api/wallets"),
        MCPToolSpec(.notices, ["notices"], arguments: ["exchange", "symbol", "kind", "limit"], route: "/api/notices"),
        MCPToolSpec(.events, ["events"], arguments: ["symbol", "exchange", "kind", "limit"], route: "/api/events"),
        MCPToolSpec(.exchanges, ["exchanges"], arguments: [], route: "/api/exchanges"),
        MCPToolSpec(.orderbook, ["orderbook"], arguments: ["market", "exchange", "levels"], route: "/api/orderbook/{market}"),
        MCPToolSpec(.trades, ["trades"], arguments: ["market", "exchange", "count"], route: "/api/trades/{market}"),
        MCPToolSpec(.candles, ["candles"], arguments: ["market", "exchange", "interval", "count"], route: "/api/candles/{market}", part: "candles"),
        MCPToolSpec(.coin, ["coin"], arguments: ["coin", "exchange", "range"], route: "/api/coins/{id}"),
        MCPToolSpec(.global, ["global"], arguments: ["currency"], route: "/api/global"),
        MCPToolSpec(.search, ["search"], arguments: ["query"], route: "/api/search"),
        MCPToolSpec(.ranking, ["rank"], arguments: ["page", "per-page", "currency", "sort", "order", "search"], route: "/api/ranking", part: "rows"),
        // The terminal's own data (`sise portfolio`, `sise tax`, `sise alerts`: the local owner's).
        MCPToolSpec(.portfolio, ["portfolio", "show"], name: "portfolio", arguments: [], route: "/api/portfolio"),
        MCPToolSpec(.tax, ["tax"], arguments: ["year", "method", "no-cost"], route: "/api/tax/{year}"),
        MCPToolSpec(.alerts, ["alerts", "list"], name: "alerts", arguments: [], route: "/api/alerts"),
        MCPToolSpec(
            .alertsAdd,
            ["alerts", "add"],
            arguments: [
                "market", "type", "value", "exchange", "level", "fast", "slow", "interval", "window", "venue", "hold", "recurring", "cooldown",
            ],
            route: "/api/alerts",
            effect: .add,
            method: "post",
            status: "201"
        ),
    ]
}
