import AppStore
import Foundation
import HTTPClient
import Logging

/// Retention Messaging API: the images messages and bullet points show.
extension AppStoreAPIClient {
    /// The eight bytes every PNG file starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Upload Image: the PNG `png` under `identifier`, for `size` (Apple's default when
    /// `nil`); Apple reviews it like a message. Refuses bytes that are not a PNG before
    /// sending; Apple also refuses transparency and wrong dimensions (`InvalidImageError`).
    public func uploadRetentionImage(
        _ identifier: UUID, png: [UInt8], size: RetentionImageSize? = nil, environment: AppStoreEnvironment = .production,
        logger: Logger? = nil
    ) async throws {
        guard png.starts(with: Self.pngSignature) else {
            throw AppStoreAPIError.invalidRequest(reason: "Apple takes PNG images only, and these bytes are not a PNG")
        }
        var call = AppStoreAPICall(
            method: .put, path: "/inApps/v1/messaging/image/" + Self.uuidPath(identifier),
            route: "/inApps/v1/messaging/image/{imageIdentifier}", body: png, contentType: "image/png")
        if let size { call.query = [("imageSize", size.rawValue)] }
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Delete Image: an unknown identifier is 404 `ImageNotFoundError`, one a message
    /// still shows is 403 `ImageInUseError` (both `.rejected`).
    public func deleteRetentionImage(_ identifier: UUID, environment: AppStoreEnvironment = .production, logger: Logger? = nil) async throws
    {
        let call = AppStoreAPICall(
            method: .delete, path: "/inApps/v1/messaging/image/" + Self.uuidPath(identifier),
            route: "/inApps/v1/messaging/image/{imageIdentifier}")
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Get Image List: every uploaded image with its review state and size.
    public func retentionImages(environment: AppStoreEnvironment = .production, logger: Logger? = nil) async throws -> [RetentionImage] {
        let call = AppStoreAPICall(method: .get, path: "/inApps/v1/messaging/image/list", route: "/inApps/v1/messaging/image/list")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.ImageList.self, body, in: environment)
            return try (wire.imageIdentifiers ?? []).map { item throws(AppStoreAPIError) in
                guard let identifier = item.imageIdentifier, !identifier.isEmpty else { throw .malformedAnswer(environment: environment) }
                return RetentionImage(identifier: identifier, stateRaw: item.imageState, sizeRaw: item.imageSize)
            }
        }
    }
}
