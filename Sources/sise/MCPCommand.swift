import ArgumentParser
import Foundation
import SiseCore
import SiseMCP
import SiseServer
import SiseSimulator

/// `sise mcp`: the Model Context Protocol over stdio, for an assistant to run as a subprocess.
/// Every tool is a `sise … --json` command; `--demo` starts the built-in simulator and points
/// them all at it.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the market commands as Model Context Protocol tools over stdio (for AI assistants; docs/mcp.md)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var storage: StoreOptions

    @Flag(help: "Run the built-in simulator instead of the live exchanges (every answer says demo).")
    var demo = false

    @Option(help: "Seconds a call may take before it is stopped (1–120).")
    var timeout: Int = 30

    /// The tools, each running its command with `environment`; `terminal`: with the tools on
    /// the terminal's own data (stdio, the user's own process) — `serve`'s `/mcp` offers the
    /// public ones only.
    static func tools(environment: [String: String], demo: Bool, language: Language, timeout: Int, terminal: Bool) -> [MCPTool] {
        let runner = MCPCommandRunner(
            executable: Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "sise"),
            environment: environment,
            demo: demo,
            language: language,
            limiter: MCPCallLimiter(),
            deadline: .seconds(timeout)
        )
        let help = (try? JSONValue.decode(Data(SiseCommand._dumpHelp().utf8), maxDepth: 32)) ?? .null
        let schemas = APIDescription.yaml.flatMap { try? OpenAPISchemas(yaml: $0) }
        return MCPToolCatalog.tools.filter { terminal || !$0.terminalData }.map { runner.tool($0, help: help, schemas: schemas) }
    }

    /// What the tools' commands run with: this process's environment, and the settings given
    /// here that they read (language, config file, store, the demo simulator).
    static func environment(_ global: GlobalOptions, _ storage: StoreOptions, simulator: URL?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SISE_LANG"] = global.language.rawValue
        if let path = global.configPath { environment["SISE_CONFIG"] = path }
        if let path = storage.dataDirectory { environment["SISE_DATA_DIR"] = path }
        if let url = storage.database { environment["SISE_DATABASE_URL"] = url }
        if let simulator { environment["SISE_DEMO_SIMULATOR"] = simulator.absoluteString }
        return environment
    }

    func validate() throws {
        guard (1...120).contains(timeout) else { throw ValidationError("--timeout must be 1 to 120 seconds.") }
    }

    func run() async throws {
        let simulator = demo ? try await RunningSimulator.start(SimulatorConfiguration()) : nil
        let tools = Self.tools(
            environment: Self.environment(global, storage, simulator: simulator?.baseURL),
            demo: demo || global.settings.demoSimulator != nil,
            language: global.language,
            timeout: timeout,
            terminal: true
        )
        let info = MCPServerInfo(name: "sise", title: "Sise", version: SiseVersion.current, instructions: MCPWords.instructions(global.language))
        await MCPStdio.serve(MCPSession(info: info, tools: tools, send: MCPStdio.write))
        await simulator?.stop()
    }
}
