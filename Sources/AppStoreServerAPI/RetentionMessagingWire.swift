import Foundation

/// The JSON bodies of Apple's Retention Messaging API, exactly as on the wire.
///
/// Internal, like ``AppStoreAPIWire``: every answer field is optional, so a missing or new
/// field never traps decoding.
enum RetentionMessagingWire {
    /// Upload Message's `UploadMessageRequestBody`.
    struct UploadMessage: Encodable {
        var header: String
        var body: String
        var image: Image?
        var headerPosition: String?
        var bulletPoints: [BulletPoint]?

        init(_ content: RetentionMessageContent) {
            header = content.header
            body = content.body
            image = content.image.map { Image(imageIdentifier: $0.imageIdentifier.uuidString.lowercased(), altText: $0.altText) }
            headerPosition = content.headerPosition?.rawValue
            bulletPoints =
                content.bulletPoints.isEmpty
                ? nil
                : content.bulletPoints.map {
                    BulletPoint(text: $0.text, imageIdentifier: $0.imageIdentifier.uuidString.lowercased(), altText: $0.altText)
                }
        }
    }

    /// `UploadMessageImage`.
    struct Image: Encodable {
        var imageIdentifier: String
        var altText: String
    }

    /// `BulletPoint`.
    struct BulletPoint: Encodable {
        var text: String
        var imageIdentifier: String
        var altText: String
    }

    /// Get Message List.
    struct MessageList: Decodable {
        var messageIdentifiers: [MessageItem]?
    }

    /// One message of the list.
    struct MessageItem: Decodable {
        var messageIdentifier: String?
        var messageState: String?
    }

    /// Get Image List.
    struct ImageList: Decodable {
        var imageIdentifiers: [ImageItem]?
    }

    /// One image of the list.
    struct ImageItem: Decodable {
        var imageIdentifier: String?
        var imageState: String?
        var imageSize: String?
    }

    /// Configure Default Message's request and Get Default Message's answer.
    struct DefaultMessage: Codable {
        var messageIdentifier: String?
    }

    /// Configure Realtime URL's request and Get Realtime URL's answer.
    struct RealtimeURL: Codable {
        var realtimeURL: String?
    }

    /// Initiate Performance Test's `PerformanceTestRequest`.
    struct PerformanceTestRequest: Encodable {
        var originalTransactionId: String
    }

    /// Initiate Performance Test's `PerformanceTestResponse`.
    struct PerformanceTestResponse: Decodable {
        var config: RetentionPerformanceTestConfig?
        var requestId: String?
    }

    /// Get Performance Test Results' `PerformanceTestResultResponse`.
    struct PerformanceTestResult: Decodable {
        var config: RetentionPerformanceTestConfig?
        var target: String?
        var result: String?
        var successRate: Int64?
        var numPending: Int64?
        var responseTimes: RetentionPerformanceTestResponseTimes?
        var failures: [String: Int64]?
    }
}
