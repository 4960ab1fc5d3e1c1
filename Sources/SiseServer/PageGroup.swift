import NIOCore

/// The pages of one view, kept in one array per event loop: a batch posts to each page of an
/// array and asks its loop once to write them all (`BoardClient.writeEach(_:)`) — no hash, no new
/// list and no reference count per page, where each would fetch the page's object from memory
/// once more (at 5,000 pages, retaining and regrouping them was ≈ 5 % of the server's CPU).
///
/// A page leaves by taking the last page of its array into its place: O(1), the order within
/// an array is no promise.
struct PageGroup {
    struct Lane {
        let loop: any EventLoop
        fileprivate(set) var pages: [BoardClient]
    }

    /// One per event loop that has had a page of the view (an emptied one stays: there are as
    /// many as the server has loops, at most).
    private(set) var lanes: [Lane] = []
    /// Where each page is: its lane and its index in it.
    private var places: [ObjectIdentifier: (lane: Int, index: Int)] = [:]

    var count: Int { places.count }
    var isEmpty: Bool { places.isEmpty }

    mutating func insert(_ page: BoardClient) {
        let id = ObjectIdentifier(page)
        guard places[id] == nil else { return }
        let loop = ObjectIdentifier(page.loop)
        let lane: Int
        if let found = lanes.firstIndex(where: { ObjectIdentifier($0.loop) == loop }) {
            lane = found
        } else {
            lanes.append(Lane(loop: page.loop, pages: []))
            lane = lanes.count - 1
        }
        places[id] = (lane, lanes[lane].pages.count)
        lanes[lane].pages.append(page)
    }

    mutating func remove(_ id: ObjectIdentifier) {
        guard let (lane, index) = places.removeValue(forKey: id) else { return }
        let last = lanes[lane].pages.count - 1
        if index != last {
            let moved = lanes[lane].pages[last]
            lanes[lane].pages[index] = moved
            places[ObjectIdentifier(moved)] = (lane, index)
        }
        lanes[lane].pages.removeLast()
    }
}

/// The pages a publication posted to, by event loop: each loop is then asked once to write all
/// of them (`start`), one list per view — the pages of the view's lane not already waiting in
/// their loop's line (`BoardClient.claimWrite`): a page is in a line once at most, so a saturated
/// loop's line holds one sweep, never a sweep per batch behind it.
struct PendingWrites {
    private var byLoop: [(loop: any EventLoop, lists: [[BoardClient]])] = []

    /// Call after posting to the group's pages: a page already waiting for its write takes these
    /// posts with it.
    mutating func add(_ group: PageGroup) {
        for lane in group.lanes where !lane.pages.isEmpty {
            let due = lane.pages.filter { $0.claimWrite() }
            guard !due.isEmpty else { continue }
            if let index = byLoop.firstIndex(where: { $0.loop === lane.loop }) {
                byLoop[index].lists.append(due)
            } else {
                byLoop.append((lane.loop, [due]))
            }
        }
    }

    func start() {
        for (loop, lists) in byLoop { loop.execute { BoardClient.writeEach(lists, on: loop) } }
    }
}
