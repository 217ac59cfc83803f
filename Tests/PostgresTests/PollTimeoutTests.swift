import Testing

@testable import Postgres

@Suite("Postgres: poll timeouts round a remaining duration up, and never trap")
struct PollTimeoutTests {
    @Test("a remainder under a millisecond waits one; whole milliseconds wait one more")
    func roundsUp() {
        #expect(Duration.zero.pollTimeoutMilliseconds == 1)
        #expect(Duration.microseconds(400).pollTimeoutMilliseconds == 1)
        #expect(Duration.milliseconds(5).pollTimeoutMilliseconds == 6)
        #expect(Duration.seconds(-3).pollTimeoutMilliseconds == 1)
    }

    @Test("a duration beyond poll's range waits the longest poll allows")
    func clampsHugeDurations() {
        #expect(Duration.seconds(Int64(Int32.max)).pollTimeoutMilliseconds == Int32.max)
        #expect(Duration.seconds(Int64.max).pollTimeoutMilliseconds == Int32.max)
    }
}
