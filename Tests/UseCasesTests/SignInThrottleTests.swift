import Foundation
import Testing

@testable import UseCases

@Suite("Failed console sign-ins wait: ten in a minute from one address")
struct SignInThrottleTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the tenth failure in a minute makes the address wait until the first leaves the window")
    func tenthFailureWaits() {
        let throttle = SignInThrottle()
        for second in 0..<9 {
            throttle.recordFailure(from: "10.0.0.1", now: start.addingTimeInterval(Double(second)))
            #expect(throttle.wait(for: "10.0.0.1", now: start.addingTimeInterval(Double(second))) == nil)
        }
        throttle.recordFailure(from: "10.0.0.1", now: start.addingTimeInterval(9))
        #expect(throttle.wait(for: "10.0.0.1", now: start.addingTimeInterval(9)) == .seconds(51))
        // Another address is not held up.
        #expect(throttle.wait(for: "10.0.0.2", now: start.addingTimeInterval(9)) == nil)
        // A minute after the first failure, one slot is free again.
        #expect(throttle.wait(for: "10.0.0.1", now: start.addingTimeInterval(60)) == nil)
    }

    @Test("a sign-in that works forgets the address's failures")
    func resetAfterSuccess() {
        let throttle = SignInThrottle(limit: 2)
        throttle.recordFailure(from: "a", now: start)
        throttle.reset("a")
        throttle.recordFailure(from: "a", now: start)
        #expect(throttle.wait(for: "a", now: start) == nil)
    }

    @Test("at most maximumAddresses are kept: the stalest is forgotten first")
    func bounded() {
        let throttle = SignInThrottle(limit: 1, maximumAddresses: 2)
        throttle.recordFailure(from: "a", now: start)
        throttle.recordFailure(from: "b", now: start.addingTimeInterval(1))
        throttle.recordFailure(from: "c", now: start.addingTimeInterval(2))
        #expect(throttle.wait(for: "a", now: start.addingTimeInterval(2)) == nil)
        #expect(throttle.wait(for: "b", now: start.addingTimeInterval(2)) != nil)
        #expect(throttle.wait(for: "c", now: start.addingTimeInterval(2)) != nil)
    }
}
