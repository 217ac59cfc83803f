import Foundation
import NIOConcurrencyHelpers

/// What a test or a demo controls of the simulated Retention Messaging API: Apple's review of
/// uploads, and how performance tests run.
extension AppStoreSimulator {
    /// How uploads are reviewed from now on (default `.approveAfter(0)`: approved at once);
    /// explicit decisions stay.
    public func setRetentionReview(_ review: RetentionReview) {
        box.withLockedValue { $0.retention.review = review }
    }

    /// How uploads are reviewed.
    public var retentionReview: RetentionReview {
        box.withLockedValue { $0.retention.review }
    }

    /// Decides the review of the message or image `identifier` of `bundleID` (default: the
    /// first app) in `environment`, over the policy; `false` when no such upload exists.
    @discardableResult
    public func reviewRetentionUpload(
        _ identifier: String, as decision: SimReviewState, bundleID: String? = nil, environment: SimEnvironment = .production
    ) -> Bool {
        guard let id = UUID(uuidString: identifier)?.uuidString.lowercased() else { return false }
        let bundle = bundleID ?? configuration.apps.first?.bundleID ?? ""
        return box.withLockedValue { state in
            var app = state.retention[bundle, environment]
            if app.messages[id] != nil {
                app.messages[id]?.decision = decision
            } else if app.images[id] != nil {
                app.images[id]?.decision = decision
            } else {
                return false
            }
            state.retention[bundle, environment] = app
            return true
        }
    }

    /// How the next performance tests run (default: like Apple's).
    public func setPerformanceTestConfig(_ config: SimPerformanceTestConfig) {
        box.withLockedValue { $0.retention.performanceTestConfig = config }
    }

    /// How the next performance tests run.
    public var performanceTestConfig: SimPerformanceTestConfig {
        box.withLockedValue { $0.retention.performanceTestConfig }
    }
}
