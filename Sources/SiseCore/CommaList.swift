/// The one reading of a comma-separated query list (`symbols=BTC,ETH`, `kind=listing,flag`,
/// `exchange=upbit,korbit`), as `/openapi.yaml`'s patterns write it: one or more items, none
/// empty (`BTC,,ETH` and a trailing comma are refused, not read as `BTC,ETH`), at most `limit`,
/// nothing trimmed. The text's length is bounded before it is split.
public enum CommaList {
    public static func items(_ text: some StringProtocol, limit: Int, itemBytes: Int = 32) -> [String]? {
        guard !text.isEmpty, text.utf8.count <= limit * (itemBytes + 1) else { return nil }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= limit, !items.contains(where: \.isEmpty) else { return nil }
        return items.map { String($0) }
    }
}
