/// How many notifications the worker may have in flight, given how fast intake answers.
///
/// Intake and the worker share the process's cores and the database. A slow intake answer
/// costs an Apple retry (and, past Apple's timeout, a notification redelivered for days);
/// a worker that lags costs only latency to the app. So the worker yields to a busy intake:
/// in a sample where intake answered at least `busyAnswers` and its p99 was above the
/// threshold, the allowance halves (down to none, when the worker only trickles, see
/// `WorkerYield`). After `calmSamplesToGrow` samples in a row where intake was fast or not
/// busy, the allowance grows back by a sixteenth of the maximum (a saturated intake, whose
/// p99 hovers about the threshold, keeps the worker down instead of letting it back in
/// whenever one sample comes out fast); in a sample where intake answered nothing, it is
/// the maximum again at once. A slow answer now and then at a low rate (a slow disk, a
/// checkpoint) is not the worker's doing, and never makes it yield.
struct WorkerYieldPolicy: Sendable, Equatable {
    /// Answers in one sample (100 ms) from which intake counts as busy: 500 a second.
    static let busyAnswers = 50
    /// Calm samples in a row before the allowance grows.
    static let calmSamplesToGrow = 3

    /// The worker's own limit (`WORKER_CONCURRENCY`).
    let maximum: Int
    /// Attempts the worker may have in flight now; 0 while it only trickles.
    private(set) var allowed: Int
    /// Calm samples since the last slow one or the last growth.
    private var calmSamples = 0

    init(maximum: Int) {
        self.maximum = max(1, maximum)
        self.allowed = self.maximum
    }

    /// Moves the allowance after one sample of intake's answers.
    mutating func update(after sample: IntakeLatencySample) {
        if sample.answered == 0 {
            allowed = maximum
            calmSamples = 0
        } else if sample.answered >= Self.busyAnswers && sample.p99IsAboveThreshold {
            allowed /= 2
            calmSamples = 0
        } else {
            calmSamples += 1
            guard calmSamples >= Self.calmSamplesToGrow else { return }
            calmSamples = 0
            allowed = min(maximum, allowed + max(1, maximum / 16))
        }
    }
}
