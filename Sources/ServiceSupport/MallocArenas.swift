#if canImport(Glibc)
import CMalloc
#endif

/// glibc's malloc arenas. By default glibc makes up to eight arenas a core as threads contend,
/// and each keeps the memory its threads freed: a process with many threads that allocate
/// in bursts (the worker's applies, the event loops, the database and HTTP thread pools)
/// peaks far above what it uses. Through a drain on 2 cores, subscriptiond peaked at 146-160 MB
/// with glibc's 16 arenas, 134-136 MB with 8, 111-112 MB with 4 and 99-103 MB with 2, at the
/// same CPU per intake request within the runs' spread (docs/performance.md §3). Two arenas a
/// core keep most of the saving and leave room for contention, as only as many threads as
/// there are cores run at once.
public enum MallocArenas {
    /// The limit to set: none when `MALLOC_ARENA_MAX` is in `environment` (glibc has read it
    /// and it stays the operator's), else two arenas a core.
    public static func limit(environment: [String: String], cores: Int) -> Int? {
        guard environment["MALLOC_ARENA_MAX"] == nil else { return nil }
        return 2 * max(1, cores)
    }

    /// Sets glibc's arena limit as ``limit(environment:cores:)`` says, before the process
    /// starts its threads; returns the limit set, or nil when none was (or the C library is
    /// not glibc).
    @discardableResult
    public static func apply(environment: [String: String], cores: Int) -> Int? {
        #if canImport(Glibc)
        guard let limit = limit(environment: environment, cores: cores), mallopt(M_ARENA_MAX, Int32(limit)) == 1 else { return nil }
        return limit
        #else
        return nil
        #endif
    }
}
