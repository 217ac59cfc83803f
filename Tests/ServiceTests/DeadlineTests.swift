import ServiceSupport
import Synchronization
import Testing

/// `firstResult(within:)` answers with the operation's result or nil, and a late operation
/// is cancelled rather than left running (an abandoned upstream call held a transfer slot).
@Suite struct DeadlineTests {
    @Test func aLateOperationIsCancelled() async {
        let sawCancellation = Atomic(false)
        let result = await firstResult(within: .milliseconds(50)) { () -> Int in
            do {
                try await Task.sleep(for: .seconds(30))
                return 1
            } catch {
                sawCancellation.store(true, ordering: .relaxed)
                return 2
            }
        }
        #expect(result == nil)
        let cancelled = sawCancellation.load(ordering: .relaxed)
        #expect(cancelled, "the operation must have been cancelled, not abandoned")
    }

    @Test func aPromptOperationAnswers() async {
        #expect(await firstResult(within: .seconds(30)) { 42 } == 42)
    }
}
