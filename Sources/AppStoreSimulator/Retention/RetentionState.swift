import Foundation

/// The Retention Messaging API's mutable part, inside the simulator's lock.
struct RetentionState: Sendable {
    /// Apple's limit of messages, and of images, per app.
    static let maximumUploads = 2_000
    /// Finished performance tests kept per app (the oldest are forgotten).
    static let keptPerformanceTests = 20

    /// How uploads are reviewed.
    var review = RetentionReview.approveAfter(0)
    /// How the next performance tests run.
    var performanceTestConfig = SimPerformanceTestConfig()
    /// Each app's messages, images and URLs, by environment and bundle id.
    var apps: [String: RetentionAppState] = [:]
    /// Performance tests by `requestId` (sandbox only, as at Apple).
    var performanceTests: [String: SimPerformanceTest] = [:]

    /// The key of one app in one environment.
    static func key(_ bundleID: String, _ environment: SimEnvironment) -> String {
        environment.rawValue + "|" + bundleID
    }

    /// One app's state in one environment, created empty on first use.
    subscript(bundleID: String, environment: SimEnvironment) -> RetentionAppState {
        get { apps[Self.key(bundleID, environment)] ?? RetentionAppState() }
        set { apps[Self.key(bundleID, environment)] = newValue }
    }

    /// Keeps `test`, forgetting the app's oldest finished tests beyond `keptPerformanceTests`.
    mutating func keep(_ test: SimPerformanceTest) {
        performanceTests[test.requestID] = test
        let finished = performanceTests.values.filter { $0.bundleID == test.bundleID && $0.finished }.sorted { $0.startedAt < $1.startedAt }
        for old in finished.dropLast(Self.keptPerformanceTests) { performanceTests[old.requestID] = nil }
    }
}

/// One app's retention set-up in one environment.
struct RetentionAppState: Sendable {
    /// Uploaded messages by identifier.
    var messages: [String: SimRetentionUpload] = [:]
    /// Uploaded images by identifier.
    var images: [String: SimRetentionUpload] = [:]
    /// Default messages by `productId|locale`.
    var defaultMessages: [String: String] = [:]
    /// The Get Retention Message endpoint's URL.
    var realtimeURL: String?
}
