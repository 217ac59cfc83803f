/// When a notification that got no 2xx is sent again.
public struct RetryPolicy: Sendable, Hashable {
    /// The waits before each retry; their count is the number of retries.
    public var delays: [Duration]
    /// Whether sandbox notifications are retried too (Apple: no).
    public var retrySandbox: Bool
    /// Whether Apple's rule that a sandbox v2 notification is sent once holds even when
    /// `retrySandbox` is on (Apple: yes).
    public var sendsSandboxV2Once: Bool

    /// A policy from its parts.
    public init(delays: [Duration], retrySandbox: Bool = false, sendsSandboxV2Once: Bool = true) {
        self.delays = delays
        self.retrySandbox = retrySandbox
        self.sendsSandboxV2Once = sendsSandboxV2Once
    }

    /// Apple's v1 schedule: 3 retries about 6, 24 and 48 hours later; none in sandbox.
    public static let apple = RetryPolicy(delays: [.seconds(6 * 3_600), .seconds(24 * 3_600), .seconds(48 * 3_600)])

    /// Apple's shape, at test speed: 3 retries after 100 ms, 500 ms and 2 s; none in sandbox.
    public static let quick = RetryPolicy(delays: [.milliseconds(100), .milliseconds(500), .seconds(2)])

    /// For tests whose subject is what subscriptiond makes of the notifications, not Apple's
    /// schedule: every notification, sandbox and v2 included, is retried 6 times over about
    /// 40 s, so a momentary 503 on a loaded machine is retried as production's retries would.
    public static let persistent = RetryPolicy(
        delays: [.milliseconds(100), .milliseconds(500), .seconds(2), .seconds(5), .seconds(10), .seconds(20)],
        retrySandbox: true, sendsSandboxV2Once: false
    )

    /// Never retry.
    public static let none = RetryPolicy(delays: [])

    /// Apple's v2 schedule: 5 retries about 1, 12, 24, 48 and 72 hours apart; none in sandbox.
    public static let appleV2 = RetryPolicy(delays: [1, 12, 24, 48, 72].map { .seconds($0 * 3_600) })

    /// The waits that apply to `notification`: never any for a sandbox v2 notification while
    /// `sendsSandboxV2Once` holds, as Apple sends those once.
    func delays(for notification: SimNotification) -> [Duration] {
        let sentOnce = sendsSandboxV2Once && notification.version == .v2 && notification.environment == .sandbox
        return sentOnce ? [] : delays(for: notification.environment)
    }

    /// The waits that apply to a notification of `environment`.
    func delays(for environment: SimEnvironment) -> [Duration] {
        environment == .sandbox && !retrySandbox ? [] : delays
    }
}
