import Foundation

/// The Retention Messaging API's error answers, with Apple's codes.
extension APIError {
    /// 400 `InvalidImageError`: not a PNG.
    static let invalidImage = APIError.badRequest(4_000_161, "Invalid request. The image is invalid.")
    /// 400 `HeaderTooLongError`.
    static let headerTooLong = APIError.badRequest(4_000_162, "Invalid request. The header text is too long.")
    /// 400 `BodyTooLongError`.
    static let bodyTooLong = APIError.badRequest(4_000_163, "Invalid request. The body text is too long.")
    /// 400 `InvalidLocaleError`.
    static let invalidLocale = APIError.badRequest(4_000_164, "Invalid request. The locale is invalid.")
    /// 400 `AltTextTooLongError`.
    static let altTextTooLong = APIError.badRequest(4_000_175, "Invalid request. The alt text is too long.")
    /// 400 `InvalidPerformanceTestRequestError`.
    static let invalidPerformanceTestRequest = APIError.badRequest(4_000_211, "Invalid request. The performance test request is invalid.")
    /// 400 `ExistingPerformanceTestRunError`.
    static let existingPerformanceTestRun = APIError.badRequest(4_000_213, "Invalid request. A performance test is already running.")
    /// 400 `BadRequestRealtimeUrlError`.
    static let badRealtimeURL = APIError.badRequest(4_000_215, "Invalid request. The realtime URL is invalid.")
    /// 400 `BadRequestImageSizeError`.
    static let badImageSize = APIError.badRequest(4_000_216, "Invalid request. The image size is invalid.")
    /// 400 `BadRequestTooManyBulletPointsError`.
    static let tooManyBulletPoints = APIError.badRequest(4_000_218, "Invalid request. Too many bullet points.")
    /// 400 `BadRequestBulletPointTextTooLongError`.
    static let bulletPointTooLong = APIError.badRequest(4_000_219, "Invalid request. The bullet point text is too long.")
    /// 400 `BadRequestAboveImageRequiresAnImageError`.
    static let aboveImageNeedsImage = APIError.badRequest(4_000_224, "Invalid request. ABOVE_IMAGE requires an image.")
    /// 400: a body or identifier that is not what the endpoint takes.
    static let invalidRequest = APIError.badRequest(4_000_000, "Invalid request.")
    /// 403 `MaximumNumberOfImagesReachedError`.
    static let tooManyImages = APIError(status: 403, code: 4_030_014, message: "Forbidden - maximum number of images reached.")
    /// 403 `MaximumNumberOfMessagesReachedError`.
    static let tooManyMessages = APIError(status: 403, code: 4_030_016, message: "Forbidden - maximum number of messages reached.")
    /// 403 `MessageNotApprovedError`.
    static let messageNotApproved = APIError(status: 403, code: 4_030_017, message: "Forbidden - the message is not approved.")
    /// 403 `ImageNotApprovedError`.
    static let imageNotApproved = APIError(status: 403, code: 4_030_018, message: "Forbidden - the image is not approved.")
    /// 403 `ImageInUseError`.
    static let imageInUse = APIError(status: 403, code: 4_030_019, message: "Forbidden - the image is in use by a message.")
    /// 403 `ForbiddenNoPassingTestError`.
    static let noPassingTest = APIError(
        status: 403, code: 4_030_026, message: "Forbidden - a passing performance test is required before configuring production.")
    /// 404 `ImageNotFoundError`.
    static let imageNotFound = APIError(status: 404, code: 4_040_014, message: "Image not found.")
    /// 404 `MessageNotFoundError`.
    static let messageNotFound = APIError(status: 404, code: 4_040_015, message: "Message not found.")
    /// 404 `PerformanceTestRunNotFoundError`.
    static let performanceTestNotFound = APIError(status: 404, code: 4_040_018, message: "Performance test run not found.")
    /// 404 `DefaultMessageNotFoundError`.
    static let defaultMessageNotFound = APIError(status: 404, code: 4_040_020, message: "Default message not found.")
    /// 404 `RealtimeUrlNotFoundError`.
    static let realtimeURLNotFound = APIError(status: 404, code: 4_040_021, message: "Realtime URL not found.")
    /// 409 `ImageAlreadyExistsError`.
    static let imageExists = APIError(status: 409, code: 4_090_000, message: "Image already exists.")
    /// 409 `MessageAlreadyExistsError`.
    static let messageExists = APIError(status: 409, code: 4_090_001, message: "Message already exists.")
}
