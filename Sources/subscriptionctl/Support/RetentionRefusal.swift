import AppStore
import AppStoreServerAPI
import Composition

/// Apple's Retention Messaging refusals by `errorCode`, named as Apple's documentation
/// names them, so a refused command says why in words rather than a number alone.
enum RetentionRefusal {
    static let explanations: [Int: String] = [
        4_000_161: "InvalidImageError: Apple refused the image (a PNG without transparency, 3840 pixels wide for FULL_SIZE)",
        4_000_162: "HeaderTooLongError: the header is too long",
        4_000_163: "BodyTooLongError: the body is too long",
        4_000_164: "InvalidLocaleError: the locale is invalid",
        4_000_175: "AltTextTooLongError: the alternative text is too long",
        4_000_211: "InvalidPerformanceTestRequestError: use an active sandbox subscription's original transaction id",
        4_000_212: "InvalidRequestIdError: no such performance test",
        4_000_213: "ExistingPerformanceTestRunError: a performance test is already running",
        4_000_215: "BadRequestRealtimeUrlError: the realtime URL is invalid",
        4_000_216:
            "BadRequestImageSizeError: the image size does not fit (FULL_SIZE for a message's image, BULLET_POINT for a bullet point)",
        4_000_218: "BadRequestTooManyBulletPointsError: too many bullet points",
        4_000_219: "BadRequestBulletPointTextTooLongError: a bullet point is too long",
        4_000_224: "BadRequestAboveImageRequiresAnImageError: the header can only go above an image",
        4_030_014: "MaximumNumberOfImagesReachedError: delete images first",
        4_030_016: "MaximumNumberOfMessagesReachedError: delete messages first",
        4_030_017: "MessageNotApprovedError: Apple has not approved the message",
        4_030_018: "ImageNotApprovedError: Apple has not approved the message's image",
        4_030_019: "ImageInUseError: a message shows the image; delete the message first",
        4_030_026: "ForbiddenNoPassingTestError: pass a sandbox performance test before setting the production URL",
        4_040_014: "ImageNotFoundError: no image with that identifier",
        4_040_015: "MessageNotFoundError: no message with that identifier",
        4_040_018: "PerformanceTestRunNotFoundError: no performance test with that id",
        4_040_020: "DefaultMessageNotFoundError: no default message is configured",
        4_040_021: "RealtimeUrlNotFoundError: no realtime URL is configured in this environment",
        4_090_000: "ImageAlreadyExistsError: an image with that identifier exists",
        4_090_001: "MessageAlreadyExistsError: a message with that identifier exists",
    ]

    /// `error` as a refusal naming Apple's error when Apple gave a code known here; else as is.
    static func explained(_ error: any Error) -> any Error {
        // Only Initiate Performance Test names a transaction, and only in the sandbox.
        if error as? AppStoreAPIError == .notFound {
            return CommandFailure.notFound("Apple knows no sandbox purchase with that original transaction id")
        }
        guard case .rejected(let environment, let status, let code?) = error as? AppStoreAPIError, let explanation = explanations[code]
        else { return error }
        return CommandFailure.refused(
            "Apple (\(environment.rawValue)) refused the request, HTTP \(status): \(explanation) (errorCode \(code))")
    }
}
