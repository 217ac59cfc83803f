/// A token bucket that keeps one app's requests in one environment under Apple's limit.
///
/// Every request takes a token first. Tokens refill continuously at `ratePerSecond` up to
/// `capacity` (one second's worth by default). A request finding the bucket empty reserves
/// the next token and sleeps until it is due, so waiters are served in arrival order and a
/// burst never exceeds the rate. A Retry-After from Apple holds the whole bucket until then.
///
/// The queue is bounded by time: a request whose token would come more than `maximumWait`
/// from now is refused at once (``Overloaded``) instead of joining the queue, so a burst
/// cannot build a backlog without end; the caller queues the work durably or retries later.
public actor AppStoreAPIRateLimiter {
    /// Requests per second.
    public nonisolated let ratePerSecond: Double
    /// The most requests allowed back to back after a quiet period.
    public nonisolated let capacity: Double
    /// The longest a request may wait for its token.
    public nonisolated let maximumWait: Duration

    /// A request refused because its token would come too late; `due` is when it would have.
    public struct Overloaded: Error, Sendable {
        /// When the refused request's token would have been due.
        public let due: ContinuousClock.Instant
    }

    /// Tokens available now; negative when waiters have reserved future tokens.
    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant
    private var heldUntil: ContinuousClock.Instant?

    /// A bucket of `ratePerSecond` (clamped to at least 0.01/s), holding `capacity` tokens
    /// (default: one second's worth, at least 1), starting full.
    public init(ratePerSecond: Double, capacity: Double? = nil, maximumWait: Duration = .seconds(30)) {
        let rate = ratePerSecond.isFinite ? max(ratePerSecond, 0.01) : 1
        let size = capacity.flatMap { $0.isFinite ? $0 : nil } ?? rate
        self.ratePerSecond = rate
        self.capacity = max(size, 1)
        self.maximumWait = maximumWait
        self.tokens = max(size, 1)
        self.refilledAt = .now
    }

    /// The share of a limit a client paces itself at: the rest absorbs network and
    /// scheduling jitter, so requests paced this way arrive under the limit in any window.
    public static let pacingShare = 0.9

    /// A bucket that keeps one app's requests under Apple's `limit` per second in every
    /// one-second window, however the window is aligned: it paces at `pacingShare` of the
    /// limit with no burst, so a window sees at most `0.9 × limit + 1` requests leave.
    public static func pacing(under limit: Double, maximumWait: Duration = .seconds(30)) -> AppStoreAPIRateLimiter {
        AppStoreAPIRateLimiter(ratePerSecond: limit * pacingShare, capacity: 1, maximumWait: maximumWait)
    }

    /// Takes one token, sleeping until one is due; throws `CancellationError` when the task
    /// is cancelled while waiting (its reservation is then returned), and ``Overloaded``
    /// without waiting when the token would come more than `maximumWait` from now.
    public func acquire() async throws {
        try Task.checkCancellation()
        let now = ContinuousClock.now
        let due = try reserve(at: now)
        guard due > now else { return }
        do {
            try await Task.sleep(until: due, clock: .continuous)
        } catch {
            tokens = min(capacity, tokens + 1)
            throw error
        }
    }

    /// Takes the next token as of `now` and says when it is due (`now` when one is free);
    /// throws ``Overloaded``, taking nothing, when that is more than `maximumWait` away.
    /// The schedule `acquire` sleeps to, apart from any sleeping: what the pacing tests check.
    func reserve(at now: ContinuousClock.Instant) throws(Overloaded) -> ContinuousClock.Instant {
        refill(at: now)
        tokens -= 1
        var due = now
        if tokens < 0 {
            due = now + .seconds(-tokens / ratePerSecond)
        }
        if let heldUntil, heldUntil > due {
            due = heldUntil
        }
        guard now.duration(to: due) <= maximumWait else {
            tokens = min(capacity, tokens + 1)
            throw Overloaded(due: due)
        }
        return due
    }

    /// Stops handing out tokens until `instant` (Apple's Retry-After), for every waiter.
    public func hold(until instant: ContinuousClock.Instant) {
        if heldUntil.map({ $0 < instant }) ?? true {
            heldUntil = instant
        }
    }

    private func refill(at now: ContinuousClock.Instant) {
        let elapsed = refilledAt.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if seconds > 0 {
            tokens = min(capacity, tokens + seconds * ratePerSecond)
            refilledAt = now
        }
        if let heldUntil, heldUntil <= now {
            self.heldUntil = nil
        }
    }
}

/// Requests per second allowed for one app, per environment and per kind of request.
public struct AppStoreAPIRateLimits: Sendable, Hashable {
    /// Production requests per second (Apple documents 50/s for the endpoints used here).
    public var production: Double
    /// Sandbox requests per second (Apple grants sandbox 10% of production).
    public var sandbox: Double
    /// Production Request a Test Notification calls per second (Apple documents 1/s).
    public var testNotificationProduction: Double
    /// Sandbox Request a Test Notification calls per second (10% of production's).
    public var testNotificationSandbox: Double
    /// Production Look Up Order ID and Get Refund History calls per second (Apple documents 10/s).
    public var customerLookupProduction: Double
    /// Sandbox Get Refund History calls per second (10% of production's).
    public var customerLookupSandbox: Double

    /// Creates limits; the defaults are Apple's documented ones.
    public init(
        production: Double = 50, sandbox: Double = 5, testNotificationProduction: Double = 1, testNotificationSandbox: Double = 0.1,
        customerLookupProduction: Double = 10, customerLookupSandbox: Double = 1
    ) {
        self.production = production
        self.sandbox = sandbox
        self.testNotificationProduction = testNotificationProduction
        self.testNotificationSandbox = testNotificationSandbox
        self.customerLookupProduction = customerLookupProduction
        self.customerLookupSandbox = customerLookupSandbox
    }
}

/// Which of Apple's limits a request counts against.
public enum AppStoreAPIRateClass: Sendable, Hashable {
    /// Statuses, history, transaction info, notification history: 50/s.
    case standard
    /// Request a Test Notification: 1/s.
    case testNotification
    /// Look Up Order ID and Get Refund History, what customer support asks: 10/s.
    case customerLookup
}
