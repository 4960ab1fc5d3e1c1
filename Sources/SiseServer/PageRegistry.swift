/// The open `/ws` pages and what each shows, kept grouped as pages come, go and change views:
/// a batch finds the pages of each view without hashing every page's view again, and a new view
/// is admitted against the distinct views counted so far — both O(1) per page, where computing
/// them from all pages made every view change O(pages) (connecting 10,000 pages cost 50 million
/// hash insertions and the server fell minutes behind).
struct PageRegistry {
    private(set) var pages: [ObjectIdentifier: BoardClient] = [:]
    /// Each page's view, as its batches are computed (favorites included).
    private var shown: [ObjectIdentifier: BoardClientView] = [:]
    /// The pages of each view, by event loop.
    private(set) var groups: [BoardClientView: PageGroup] = [:]
    /// Pages per distinct view as the bound counts them (favorites left out: two devices' starred
    /// lists are one view to compute per batch, whatever the stars).
    private var distinct: [BoardClientView: Int] = [:]

    var count: Int { pages.count }
    var viewCount: Int { distinct.count }

    mutating func add(_ page: BoardClient) {
        pages[ObjectIdentifier(page)] = page
    }

    /// Forgets the page; returns it if it was here.
    mutating func remove(_ page: BoardClient) -> BoardClient? {
        let id = ObjectIdentifier(page)
        leave(id)
        return pages.removeValue(forKey: id)
    }

    /// Whether the page may show `view` with at most `limit` distinct views on the server: it is
    /// one already shown (by any page), or there is room for one more.
    func admits(_ view: BoardClientView, for page: BoardClient, limit: Int) -> Bool {
        let key = Self.key(view)
        if distinct[key] != nil { return true }
        // The page's own current view goes away when it moves.
        let leaving = shown[ObjectIdentifier(page)].map { distinct[Self.key($0)] == 1 } ?? false
        return distinct.count - (leaving ? 1 : 0) < limit
    }

    /// The page now shows `view` (a page not registered is ignored: it has gone).
    mutating func show(_ view: BoardClientView, for page: BoardClient) {
        let id = ObjectIdentifier(page)
        guard pages[id] != nil else { return }
        leave(id)
        shown[id] = view
        groups[view, default: PageGroup()].insert(page)
        distinct[Self.key(view), default: 0] += 1
    }

    private mutating func leave(_ id: ObjectIdentifier) {
        guard let view = shown.removeValue(forKey: id) else { return }
        groups[view]?.remove(id)
        if groups[view]?.isEmpty == true { groups[view] = nil }
        let key = Self.key(view)
        distinct[key, default: 1] -= 1
        if distinct[key] == 0 { distinct[key] = nil }
    }

    private static func key(_ view: BoardClientView) -> BoardClientView {
        BoardClientView(parameters: view.parameters, language: view.language, favorites: nil)
    }
}
