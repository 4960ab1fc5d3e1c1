import Foundation
import SiseCore
import SiseEngine
import SiseTestSupport
import Testing

@testable import SiseTUI
@testable import sise

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One board through every face — the CLI table, the TUI frame and the web page's strings —
/// shows the same column titles and the same 유의/주의 marks, in Korean and English, because
/// all of them take their words from SiseCore's one table.
@Suite struct FacesAgreeTests {
    static func row(_ code: String, _ name: String, warning: Bool) -> MarketRow {
        let id = MarketID(code)!
        return MarketRow(
            market: Market(id: id, koreanName: name, englishName: name, warning: warning),
            ticker: Ticker(
                market: id,
                price: 1_000,
                change: .rise,
                signedChangePrice: 10,
                signedChangeRate: 0.01,
                tradeValue24h: 5_000_000_000
            ),
            exchange: .upbit
        )
    }

    static let rows = [row("KRW-BTC", "Bitcoin", warning: false), row("KRW-WRN", "Warned", warning: true)]

    @Test(arguments: Language.allCases)
    func cliAndTUIShowTheSameTitlesAndMarks(_ language: Language) {
        let text = BoardText(language: language)
        let table = MarketTable(language: language, color: false).render(Self.rows).joined(separator: "\n")
        let snapshot = BoardSnapshot(
            rows: Dictionary(uniqueKeysWithValues: Self.rows.map { ($0.id, $0) }),
            receivedAt: [:],
            status: ConnectivityStatus(exchange: "upbit", state: .live, since: 0)
        )
        let state = TUIState(language: language)
        let frame = TUIRenderer().render(
            state,
            snapshot: snapshot,
            rows: state.query.apply(Self.rows),
            width: 140,
            height: 12,
            now: 0
        ).text
        for column in [BoardText.Column.name, .price, .change, .changePrice, .value] {
            #expect(table.contains(text.title(column)), "CLI \(language): \(text.title(column))")
            #expect(frame.contains(text.title(column)), "TUI \(language): \(text.title(column))")
        }
        let warned = text.markPrefix(Self.rows[1].market) + "Warned"
        #expect(table.contains(warned) && frame.contains(warned), "\(language): \(warned)")
        #expect(!table.contains(text.markPrefix(Self.rows[1].market) + "Bitcoin"))
    }

    /// The page takes its words from the server: `sise serve` answers `/i18n/{lang}.json` from
    /// the same table, so the page's titles, marks and states are the CLI's and the TUI's.
    @Test func thePageGetsTheSameWordsFromTheServer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-faces-\(UUID().uuidString)")
        let serve = try SiseProcess(["serve", "--demo", "--port", "0", "--data-dir", directory.path])
        defer { _ = serve.terminate() }
        try await expectEventually(timeout: .seconds(20)) { serve.lines.contains { $0.hasPrefix("listening on ") } }
        let base = try #require(serve.lines.first { $0.hasPrefix("listening on ") }?.dropFirst("listening on ".count))
        let warned = Self.rows[1].market
        for language in Language.allCases {
            let (data, _) = try await URLSession.shared.data(from: try #require(URL(string: "\(base)/i18n/\(language.rawValue).json")))
            let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            let text = BoardText(language: language)
            for column in [BoardText.Column.name, .price, .change, .value] {
                #expect(page[column.rawValue] == text.title(column), "\(language): \(column)")
            }
            #expect(page["warning"] == text.mark(warned), "\(language) warning mark")
            for state in Connectivity.allCases {
                #expect(page[state.rawValue] == state.label(language), "\(language): \(state)")
            }
            #expect(
                page.count == UIText.allCases.count + EventText.allCases.count + TaxText.allCases.count + AccountText.allCases.count,
                "the whole tables"
            )
            #expect(page == UIText.page(language))
        }
    }
}
