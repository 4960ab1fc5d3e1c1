import ArgumentParser
import Foundation
import SiseFeeds

#if canImport(Glibc)
import Glibc
#endif

/// Entry point: runs the chosen command and turns every failure into one clear line on stderr
/// and a documented exit code (0 ok, 1 unexpected, 2 bad usage, 3 upstream error).
@main
enum SiseMain {
    static func main() async {
        // Before any other thread runs: see `UpstreamWebSocket.prepare`.
        UpstreamWebSocket.prepare()
        do {
            // The exchanges' address flags come from the registry, not from parser properties.
            let flags = try ExchangeURLFlags.split(Array(CommandLine.arguments.dropFirst()))
            var command = try SiseCommand.parseAsRoot(flags.rest)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let missing as ExchangeURLFlags.Missing {
            FileHandle.standardError.write(Data("sise: \(missing.message) (see sise --help)\n".utf8))
            exit(CLIExit.usage.rawValue)
        } catch let problem as ConfigFile.Problem {
            // A setting from the environment or the config file that only a command's run read.
            FileHandle.standardError.write(Data("sise: \(problem.message).\n".utf8))
            exit(CLIExit.usage.rawValue)
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data((failure.message + "\n").utf8))
            exit(failure.code.rawValue)
        } catch {
            let code = SiseCommand.exitCode(for: error)
            if code == .success {
                print(SiseCommand.fullMessage(for: error))
                exit(0)
            }
            // One line, as every other failure: the usage text is one `--help` away.
            let line = SiseCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad usage"
            FileHandle.standardError.write(Data("sise: \(line) (see sise --help)\n".utf8))
            exit(CLIExit.usage.rawValue)
        }
    }
}
