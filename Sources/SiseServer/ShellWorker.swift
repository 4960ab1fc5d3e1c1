import SiseCore

/// The service worker as the server sends it: `sw.js` with its version and its shell — the files
/// the page loads, at the addresses it loads them from — written in. The worker caches the shell
/// once, as it installs; a deployed change to any file changes the version, so browsers install
/// the new worker and with it the new shell.
enum ShellWorker {
    /// The lines of `sw.js` the server replaces.
    static let versionLine = #"const VERSION = "unversioned";"#
    static let shellLine = #"const SHELL = ["/"];"#

    /// Files the page never loads from the shell: the worker itself, the API's description, the
    /// 404 page's stylesheet, and the page's own file (kept as `/`, the address of every view).
    static let outside: Set<String> = ["sw.js", "openapi.yaml", "notfound.css", "index.html"]

    /// Stylesheets and scripts are named under `/v/{version}/` (see `StaticAssets.versioned`);
    /// the scripts' modules follow by relative address.
    static func isVersioned(_ name: String) -> Bool {
        name.hasSuffix(".js") || name.hasSuffix(".css")
    }

    /// The addresses to cache: the page, each of its files, and its words in every language.
    static func shell(_ names: [String], version: String) -> [String] {
        ["/"]
            + names.filter { !outside.contains($0) }.map { isVersioned($0) ? "/v/\(version)/\($0)" : "/\($0)" }
            + Language.allCases.map(I18nController.path)
    }

    static func written(_ worker: String, version: String, shell: [String]) -> String {
        TextTemplate.fill(
            worker,
            [
                versionLine: "const VERSION = \(JSONString.quoted(version));",
                shellLine: "const SHELL = [\(shell.map(JSONString.quoted).joined(separator: ", "))];",
            ]
        )
    }
}
