/// Gives freed memory back to the system once many pages have left. glibc keeps what a page
/// freed in its arenas for the next allocation; after a crowd leaves (a deploy, a network blip
/// that reconnects everyone elsewhere) that is tens of megabytes resident for nobody. Trimming
/// costs a few milliseconds, so it runs only after the page count has fallen by `drop` from its
/// last high.
struct MemoryTrim {
    let drop: Int
    private var high = 0

    init(drop: Int = 256) {
        self.drop = drop
    }

    /// Notes the page count now; true when memory was trimmed.
    mutating func pages(_ count: Int) -> Bool {
        high = max(high, count)
        guard high - count >= drop || (count == 0 && high > 0) else { return false }
        high = count
        #if os(Linux)
        _ = glibcMallocTrim(0)
        return true
        #else
        return false
        #endif
    }
}

#if os(Linux)
/// glibc's `int malloc_trim(size_t pad)`, which Swift's Glibc module does not export (it is
/// declared in <malloc.h>); integer arguments and result pass the same way in Swift and C.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
