import Foundation
import NIOConcurrencyHelpers

/// Retention Messaging API: images, per app and environment.
extension AppStoreSimulator {
    /// The eight bytes every PNG file starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Upload Image: a PNG (`InvalidImageError` otherwise), `imageSize` `FULL_SIZE` (the
    /// default) or `BULLET_POINT`, no identifier twice, at most 2,000 images; the image
    /// starts `PENDING`. Only its size is kept, never its bytes.
    func apiUploadRetentionImage(
        _ identifier: String, size: String?, body: [UInt8], environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) {
        let id = try Self.retentionIdentifier(identifier)
        let size = size ?? "FULL_SIZE"
        guard ["FULL_SIZE", "BULLET_POINT"].contains(size) else { throw .badImageSize }
        guard body.starts(with: Self.pngSignature) else { throw .invalidImage }
        try changeRetention { retention in
            var app = retention[bundleID, environment]
            guard app.images[id] == nil else { return .imageExists }
            guard app.images.count < RetentionState.maximumUploads else { return .tooManyImages }
            app.images[id] = SimRetentionUpload(identifier: id, uploadedAt: now, imageSize: size)
            retention[bundleID, environment] = app
            return nil
        }
    }

    /// Delete Image: 404 `ImageNotFoundError` for an unknown one, 403 `ImageInUseError` while
    /// a message shows it.
    func apiDeleteRetentionImage(_ identifier: String, environment: SimEnvironment, bundleID: String) throws(APIError) {
        let id = try Self.retentionIdentifier(identifier)
        try changeRetention { retention in
            var app = retention[bundleID, environment]
            guard app.images[id] != nil else { return .imageNotFound }
            guard !app.messages.values.contains(where: { $0.imageIdentifiers.contains(id) }) else { return .imageInUse }
            app.images[id] = nil
            retention[bundleID, environment] = app
            return nil
        }
    }

    /// Get Image List: `{"imageIdentifiers": [{"imageIdentifier", "imageState", "imageSize"}]}`, oldest first.
    func apiRetentionImageList(environment: SimEnvironment, bundleID: String, now: Date) -> JSONValue {
        box.withLockedValue { state in
            let review = state.retention.review
            let items = state.retention[bundleID, environment].images.values.sorted(by: Self.uploadOrder).map { image in
                JSONValue.object([
                    ("imageIdentifier", .string(image.identifier)),
                    ("imageState", .string(image.state(at: now, review: review).rawValue)),
                    ("imageSize", .string(image.imageSize ?? "FULL_SIZE")),
                ])
            }
            return .object([("imageIdentifiers", .array(items))])
        }
    }
}
