import Synchronization

/// The bytes of unauthenticated request bodies this process holds in memory at once
/// (`INTAKE_MAX_INFLIGHT_BYTES`), shared by every connection.
///
/// Intake must read a body before it can tell Apple from anyone else, so without a bound
/// 2,048 connections each declaring 4 MiB would take 8 GiB. A body reserves what it declares
/// (or, without a `Content-Length`, what has arrived, step by step) before more of it is
/// read; one that does not fit is refused at once and its bytes are never read.
final class InflightBodyBudget: Sendable {
    /// The most bytes held at once.
    let capacity: Int
    private let used = Atomic(0)

    /// A budget of `capacity` bytes, none reserved.
    init(capacity: Int) {
        precondition(capacity >= 0, "a budget cannot be negative")
        self.capacity = capacity
    }

    /// Bytes reserved now.
    var reserved: Int { used.load(ordering: .relaxed) }

    /// Reserves `bytes` when they fit, all or nothing; false (nothing reserved) when they do not.
    func reserve(_ bytes: Int) -> Bool {
        precondition(bytes >= 0, "cannot reserve a negative count")
        var current = used.load(ordering: .relaxed)
        while true {
            guard bytes <= capacity - current else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back `bytes` reserved earlier.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        let remaining = used.subtract(bytes, ordering: .relaxed).newValue
        assert(remaining >= 0, "released more than was reserved")
    }
}

extension InflightBodyBudget {
    /// What one body holds of the budget; grows as the body does. Its holder gives it back
    /// with `release()` (in a `defer`, so a failure or a cancelled read gives it back too).
    struct Reservation {
        /// Without a declared length, a body reserves at least this much more at a time.
        static let step = 64 * 1_024

        let budget: InflightBodyBudget
        /// Bytes this body holds.
        private(set) var bytes = 0

        init(_ budget: InflightBodyBudget) { self.budget = budget }

        /// Holds at least `total` bytes in all, reserving the difference; throws 503
        /// `overloaded` (still holding what it held) when the budget has no room for it.
        mutating func grow(to total: Int) throws(APIError) {
            guard total > bytes else { return }
            guard budget.reserve(total - bytes) else { throw APIError.overloaded }
            bytes = total
        }

        /// Gives everything back.
        mutating func release() {
            budget.release(bytes)
            bytes = 0
        }
    }
}
