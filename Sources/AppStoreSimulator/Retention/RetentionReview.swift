import Foundation

/// How the simulator reviews uploaded retention messages and images, as Apple's reviewers
/// would: every upload starts `PENDING`.
public enum RetentionReview: Sendable, Hashable {
    /// Each upload is approved this many seconds after it arrives (0, the default: at once).
    case approveAfter(TimeInterval)
    /// Uploads stay `PENDING` until a test approves or rejects them
    /// (`AppStoreSimulator.reviewRetentionUpload`, `POST /control/retention/review`).
    case manual
}

/// A review state Apple reports for a message or an image.
public enum SimReviewState: String, Sendable, Hashable, CaseIterable {
    /// Not reviewed yet.
    case pending = "PENDING"
    /// Approved: the App Store may show it.
    case approved = "APPROVED"
    /// Rejected: the App Store never shows it.
    case rejected = "REJECTED"
}
