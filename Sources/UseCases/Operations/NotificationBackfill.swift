import AppStore
import AppStoreServerAPI
import Foundation
import Intake
import Settings
import Store

/// `subscriptionctl notifications backfill`: Get Notification History, page by page, into the
/// inbox. Each page is stored with the run's progress in one transaction, so a run stopped at
/// any point resumes after the last page it stored, and a notification already in the inbox
/// counts as a duplicate.
public struct NotificationBackfill: Sendable {
    /// What one stored page came to.
    public struct Page: Sendable {
        /// The run after the page.
        public let run: BackfillRun
        public let stored: Int
        public let duplicates: Int
        /// Why each refused notification was refused (it verified, but names no configured app, …).
        public let refusals: [String]
    }

    private let store: BackfillStore
    private let apps: AppRegistry

    /// Backfills into `store`'s inbox for the configured `apps`.
    public init(store: BackfillStore, apps: AppRegistry) {
        self.store = store
        self.apps = apps
    }

    /// Runs (or resumes) the backfill of `client`'s app in `environment` from `start` to `end`
    /// (nil: now, or the end a stopped run had); `onStart` hears of the run before the first
    /// page, `onPage` of each page. Returns the finished run.
    public func run(
        client: AppStoreAPIClient, environment: AppStoreEnvironment, start: Date, end: Date?, onlyFailures: Bool,
        onStart: (BackfillRun) -> Void = { _ in }, onPage: (Page) -> Void = { _ in }
    ) async throws -> BackfillRun {
        guard start < (end ?? Date()) else { throw UseCaseError.malformed("--since must be before --until") }
        var run = try await store.open(
            bundleID: client.bundleID, environment: environment, start: start, end: end, onlyFailures: onlyFailures)
        onStart(run)
        // Without an end, a run stopped earlier resumes with the window it had.
        let query = NotificationHistoryQuery(startDate: start, endDate: run.end, onlyFailures: onlyFailures)
        repeat {
            let page = try await client.notificationHistoryPage(query, paginationToken: run.paginationToken, environment: environment)
            var entries: [InboxEntry] = []
            var refusals: [String] = []
            for item in page.notifications {
                switch SignedNotificationEntry.make(item.notification, signedPayload: item.signedPayload, apps: apps) {
                case .success(let entry): entries.append(entry)
                case .failure(let refusal): refusals.append("\(refusal)")
                }
            }
            let (after, stored, duplicates) = try await store.storePage(
                entries, refused: refusals.count, next: page.hasMore ? page.paginationToken : nil, of: run)
            run = after
            onPage(Page(run: run, stored: stored, duplicates: duplicates, refusals: refusals))
        } while run.paginationToken != nil
        return run
    }
}
