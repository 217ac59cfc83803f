import Foundation

/// Posts v1 and v2 notifications to a subscriptiond URL like Apple does: `Content-Type:
/// application/json`, success on any 2xx, retries on anything else per `RetryPolicy`.
public struct NotificationSender: Sendable {
    /// Where notifications go, e.g. `http://127.0.0.1:8080/notifications/appstore`; several
    /// stand for instances behind a load balancer: the notifications are spread over them in
    /// turn, and each retry goes to the next one, as a balancer moves off an instance that
    /// failed (so one that is down only delays what was sent to it).
    public let targets: [URL]
    /// The first (or only) target.
    public var target: URL { targets[0] }
    /// When to retry.
    public var retry: RetryPolicy
    /// How long one attempt may take.
    public var timeout: Duration
    /// Notifications in flight at once (1 keeps the given order exactly).
    public var concurrency: Int
    /// Which v2 notifications are skipped on purpose (none by default).
    public var drops: DropPolicy
    /// Where attempts and drops are recorded for Get Notification History; `nil` records nothing.
    public var simulator: AppStoreSimulator?

    /// A sender from its parts.
    public init(
        target: URL, retry: RetryPolicy = .quick, timeout: Duration = .seconds(10), concurrency: Int = 1,
        drops: DropPolicy = .none, simulator: AppStoreSimulator? = nil
    ) {
        self.init(
            targets: target, [], retry: retry, timeout: timeout, concurrency: concurrency, drops: drops, simulator: simulator)
    }

    /// A sender to `first` and `others`, spread over them in turn.
    public init(
        targets first: URL, _ others: [URL], retry: RetryPolicy = .quick, timeout: Duration = .seconds(10), concurrency: Int = 1,
        drops: DropPolicy = .none, simulator: AppStoreSimulator? = nil
    ) {
        self.targets = [first] + others
        self.retry = retry
        self.timeout = timeout
        self.concurrency = max(1, concurrency)
        self.drops = drops
        self.simulator = simulator
    }

    /// Delivers `notifications` in order, at most `concurrency` at a time.
    public func deliver(_ notifications: [SimNotification]) async -> DeliveryReport {
        await withTaskGroup(of: DeliveryReport.self) { group in
            var report = DeliveryReport()
            var pending = notifications.enumerated().makeIterator()
            for _ in 0..<concurrency {
                guard let (position, next) = pending.next() else { break }
                group.addTask { await deliver(next, firstTarget: position) }
            }
            while let done = await group.next() {
                report.merge(done)
                if let (position, next) = pending.next() {
                    group.addTask { await deliver(next, firstTarget: position) }
                }
            }
            return report
        }
    }

    /// Delivers one notification, retrying as the policy says; the first attempt goes to
    /// target number `firstTarget` (modulo their count), each retry to the next.
    public func deliver(_ notification: SimNotification, firstTarget: Int = 0) async -> DeliveryReport {
        var report = DeliveryReport()
        report.sent = 1
        if drops.drops(notification) {
            // Recorded as one attempt that got no answer, so the history offers it to a backfill.
            simulator?.recordSendAttempt(notification, SendAttempt(date: Date(), result: "NO_RESPONSE"), dropped: true)
            report.dropped = [notification]
            return report
        }
        let delays = retry.delays(for: notification)
        for attempt in 0...delays.count {
            if attempt > 0 {
                try? await Task.sleep(for: delays[attempt - 1])
            }
            report.attempts += 1
            do {
                let answer = try await SimHTTPClient.send(
                    to: targets[(firstTarget + attempt) % targets.count], headers: [("Content-Type", "application/json")],
                    body: notification.body, timeout: timeout
                )
                report.statuses[answer.status, default: 0] += 1
                let success = (200..<300).contains(answer.status)
                simulator?.recordSendAttempt(
                    notification, SendAttempt(date: Date(), result: success ? SendAttempt.success : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"))
                if success {
                    report.delivered = 1
                    return report
                }
            } catch {
                simulator?.recordSendAttempt(
                    notification, SendAttempt(date: Date(), result: error as? SimHTTPError == .timeout ? "TIMED_OUT" : "NO_RESPONSE"))
                report.transportErrors += 1
            }
        }
        report.failed = [notification]
        return report
    }
}
