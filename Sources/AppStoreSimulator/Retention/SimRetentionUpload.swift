import Foundation

/// One uploaded retention message or image, as the simulator keeps it: never the image's
/// bytes or the message's text beyond what Apple's answers need.
struct SimRetentionUpload: Sendable, Hashable {
    /// The identifier, a lower-case UUID.
    let identifier: String
    /// When it arrived.
    let uploadedAt: Date
    /// A reviewer's explicit decision; `nil` leaves it to the review policy.
    var decision: SimReviewState?
    /// An image's `imageSize` (`FULL_SIZE`, `BULLET_POINT`); `nil` for a message.
    var imageSize: String?
    /// A message's images (its image and bullet-point icons); empty for an image.
    var imageIdentifiers: [String] = []

    /// The state Apple would report at `now` under `review`.
    func state(at now: Date, review: RetentionReview) -> SimReviewState {
        if let decision { return decision }
        switch review {
        case .manual: return .pending
        case .approveAfter(let delay): return now.timeIntervalSince(uploadedAt) >= delay ? .approved : .pending
        }
    }
}
