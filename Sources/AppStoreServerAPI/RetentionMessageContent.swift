import Foundation

/// What Upload Message sends (Apple's `UploadMessageRequestBody`): the header and body text,
/// an optional image with its alternative text, optional bullet points and where the header goes.
///
/// ``problem`` checks Apple's documented limits before anything is sent, so a CLI can name
/// the field; Apple checks them again (`HeaderTooLongError` and the like).
public struct RetentionMessageContent: Sendable, Hashable {
    /// Apple's longest header, in characters.
    public static let maximumHeaderLength = 66
    /// Apple's longest body, in characters.
    public static let maximumBodyLength = 144
    /// Apple's longest alternative text of an image, in characters.
    public static let maximumAltTextLength = 150
    /// Apple's largest number of bullet points.
    public static let maximumBulletPoints = 5
    /// Apple's longest bullet point text, in characters.
    public static let maximumBulletPointLength = 66

    /// The header text shown to the customer.
    public var header: String
    /// The body text shown to the customer.
    public var body: String
    /// An uploaded image shown with the message, and its alternative text.
    public var image: RetentionMessageImage?
    /// Bullet points, each with an uploaded bullet-point image.
    public var bulletPoints: [RetentionBulletPoint]
    /// `ABOVE_BODY` (Apple's default when absent) or `ABOVE_IMAGE`.
    public var headerPosition: RetentionHeaderPosition?

    /// A message from its parts.
    public init(
        header: String, body: String, image: RetentionMessageImage? = nil, bulletPoints: [RetentionBulletPoint] = [],
        headerPosition: RetentionHeaderPosition? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.bulletPoints = bulletPoints
        self.headerPosition = headerPosition
    }

    /// The first broken limit, as one sentence naming the field; `nil` when Apple's limits hold.
    public var problem: String? {
        if header.isEmpty { return "the header is empty" }
        if header.count > Self.maximumHeaderLength {
            return "the header has \(header.count) characters; Apple allows \(Self.maximumHeaderLength)"
        }
        if body.isEmpty { return "the body is empty" }
        if body.count > Self.maximumBodyLength { return "the body has \(body.count) characters; Apple allows \(Self.maximumBodyLength)" }
        if let image, image.altText.count > Self.maximumAltTextLength {
            return "the image's alternative text has \(image.altText.count) characters; Apple allows \(Self.maximumAltTextLength)"
        }
        if bulletPoints.count > Self.maximumBulletPoints {
            return "\(bulletPoints.count) bullet points; Apple allows \(Self.maximumBulletPoints)"
        }
        for point in bulletPoints {
            if point.text.count > Self.maximumBulletPointLength {
                return "a bullet point has \(point.text.count) characters; Apple allows \(Self.maximumBulletPointLength)"
            }
            if point.altText.count > Self.maximumAltTextLength {
                return "a bullet point's alternative text has \(point.altText.count) characters; Apple allows \(Self.maximumAltTextLength)"
            }
        }
        if headerPosition == .aboveImage, image == nil { return "the header can only go above the image when there is an image" }
        return nil
    }
}

/// An uploaded image shown with a message (Apple's `UploadMessageImage`).
public struct RetentionMessageImage: Sendable, Hashable {
    /// The image's identifier, as uploaded with Upload Image.
    public var imageIdentifier: UUID
    /// The alternative text read to customers who cannot see it.
    public var altText: String

    /// An image reference from its parts.
    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// One bullet point of a message (Apple's `BulletPoint`): text and a bullet-point-size image.
public struct RetentionBulletPoint: Sendable, Hashable {
    /// The bullet point's text.
    public var text: String
    /// The identifier of an image uploaded with the `BULLET_POINT` size.
    public var imageIdentifier: UUID
    /// The image's alternative text.
    public var altText: String

    /// A bullet point from its parts.
    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// Where a message's header goes (Apple's `headerPosition`).
public enum RetentionHeaderPosition: String, Sendable, Hashable, CaseIterable {
    /// Above the body text (Apple's default).
    case aboveBody = "ABOVE_BODY"
    /// Above the image; needs an image.
    case aboveImage = "ABOVE_IMAGE"
}
