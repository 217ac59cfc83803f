#if canImport(Glibc)
import CMalloc
#endif

/// glibc's malloc arenas. By default glibc makes up to eight arenas a core as threads contend,
/// and each keeps the memory its threads freed: a process with many threads that allocate
/// in bursts (the worker's applies, the event loops, the database and HTTP thread pools)
/// peaks far above what it uses (the drain: 155 MB with glibc's default on 2 cores, 99 MB
/// with two arenas). One arena a core keeps the contention low, as only that many threads
/// run at once.
public enum MallocArenas {
    /// The limit to set: none when `MALLOC_ARENA_MAX` is in `environment` (glibc has read it
    /// and it stays the operator's), else one arena a core.
    public static func limit(environment: [String: String], cores: Int) -> Int? {
        guard environment["MALLOC_ARENA_MAX"] == nil else { return nil }
        return max(1, cores)
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
