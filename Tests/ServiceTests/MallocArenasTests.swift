import ServiceSupport
import Testing

@Suite("glibc's malloc arena limit")
struct MallocArenasTests {
    @Test("two arenas a core, unless MALLOC_ARENA_MAX is set, which stays glibc's to read")
    func limit() {
        #expect(MallocArenas.limit(environment: [:], cores: 2) == 4)
        #expect(MallocArenas.limit(environment: [:], cores: 16) == 32)
        #expect(MallocArenas.limit(environment: [:], cores: 0) == 2)
        #expect(MallocArenas.limit(environment: ["MALLOC_ARENA_MAX": "4"], cores: 2) == nil)
    }

    #if canImport(Glibc)
    @Test("glibc takes the limit")
    func apply() {
        // The limit only bounds arenas made from now on; this process's other tests are unaffected by it.
        #expect(MallocArenas.apply(environment: [:], cores: 64) == 128)
        #expect(MallocArenas.apply(environment: ["MALLOC_ARENA_MAX": "8"], cores: 64) == nil)
    }
    #endif
}
