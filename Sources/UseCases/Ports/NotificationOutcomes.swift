import Foundation
import Store

/// Where a claimed notification's outcome is recorded when nothing was applied: another
/// attempt later, or none (`NotificationInbox` in production). Both are fenced: a claim that
/// is no longer its entry's writes nothing and gets false.
public protocol NotificationOutcomes: Sendable {
    /// Schedules another attempt at `next`, keeping `reason`; false when the claim is stale.
    func scheduleRetry(_ notification: ClaimedNotification, at next: Date, reason: String) async throws -> Bool
    /// Gives up on the entry for `reason`; false when the claim is stale.
    func markDead(_ notification: ClaimedNotification, reason: String) async throws -> Bool
}
