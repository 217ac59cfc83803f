import Synchronization

/// Intake's answers since the worker's yield last looked: how many there were, and how many
/// took longer than the yield's threshold. Intake records each answer (two atomic adds);
/// the yield takes and resets the counts once per sample.
final class IntakeLatencyWindow: Sendable {
    /// An answer slower than this counts as slow.
    let threshold: Duration
    private let answered = Atomic<Int>(0)
    private let slow = Atomic<Int>(0)

    init(threshold: Duration) {
        self.threshold = threshold
    }

    /// Counts one intake answer that took `elapsed` from the request's arrival.
    func record(_ elapsed: Duration) {
        answered.add(1, ordering: .relaxed)
        if elapsed > threshold {
            slow.add(1, ordering: .relaxed)
        }
    }

    /// The counts since the last call, which start again from zero.
    func take() -> IntakeLatencySample {
        IntakeLatencySample(
            answered: answered.exchange(0, ordering: .relaxed), slow: slow.exchange(0, ordering: .relaxed))
    }
}

/// Intake answers over one sample of the worker's yield.
struct IntakeLatencySample: Sendable, Equatable {
    /// Answers given.
    var answered: Int
    /// Of those, answers slower than the threshold.
    var slow: Int

    /// Whether more than one answer in a hundred was slow: intake's p99 is above the threshold.
    var p99IsAboveThreshold: Bool {
        slow * 100 > answered
    }
}
