import Foundation

/// Apple's review state of an uploaded message or image (`messageState`, `imageState`).
public enum RetentionReviewState: String, Sendable, Hashable, CaseIterable {
    /// Uploaded, not reviewed yet: the App Store does not show it.
    case pending = "PENDING"
    /// Approved: a real-time answer or a default message may name it.
    case approved = "APPROVED"
    /// Rejected: it will never be shown.
    case rejected = "REJECTED"
}

/// The size an image is uploaded for (`imageSize`).
public enum RetentionImageSize: String, Sendable, Hashable, CaseIterable {
    /// 3840 pixels wide, shown above a message's body.
    case fullSize = "FULL_SIZE"
    /// A bullet point's icon.
    case bulletPoint = "BULLET_POINT"
}

/// One entry of Get Message List: a message's identifier and its review state.
///
/// Apple's spellings are kept as they came (`identifier`, `stateRaw`), so a value this
/// version does not know never fails the list; `state` is `nil` for those.
public struct RetentionMessage: Sendable, Hashable {
    /// The message identifier as Apple spelled it (a UUID).
    public let identifier: String
    /// `messageState` as Apple sent it (`nil` when absent).
    public let stateRaw: String?

    /// An entry from Apple's fields.
    public init(identifier: String, stateRaw: String?) {
        self.identifier = identifier
        self.stateRaw = stateRaw
    }

    /// The typed review state, or `nil` for a value this version does not know.
    public var state: RetentionReviewState? { stateRaw.flatMap(RetentionReviewState.init(rawValue:)) }
    /// The identifier as a UUID, when it is one.
    public var uuid: UUID? { UUID(uuidString: identifier) }
}

/// One entry of Get Image List: an image's identifier, review state and size.
public struct RetentionImage: Sendable, Hashable {
    /// The image identifier as Apple spelled it (a UUID).
    public let identifier: String
    /// `imageState` as Apple sent it (`nil` when absent).
    public let stateRaw: String?
    /// `imageSize` as Apple sent it (`nil` when absent).
    public let sizeRaw: String?

    /// An entry from Apple's fields.
    public init(identifier: String, stateRaw: String?, sizeRaw: String?) {
        self.identifier = identifier
        self.stateRaw = stateRaw
        self.sizeRaw = sizeRaw
    }

    /// The typed review state, or `nil` for a value this version does not know.
    public var state: RetentionReviewState? { stateRaw.flatMap(RetentionReviewState.init(rawValue:)) }
    /// The typed size, or `nil` for a value this version does not know.
    public var size: RetentionImageSize? { sizeRaw.flatMap(RetentionImageSize.init(rawValue:)) }
}
