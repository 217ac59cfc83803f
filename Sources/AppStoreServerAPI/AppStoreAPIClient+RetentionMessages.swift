import AppStore
import Foundation
import HTTPClient
import Logging

/// Retention Messaging API: messages and default messages, with the app's key, rate limiter
/// and retry rules like every other call. Each call is asked in `environment` only
/// (production by default): Apple keeps messages per environment.
extension AppStoreAPIClient {
    /// Upload Message: `content` under `identifier`, which Apple then reviews (`PENDING`,
    /// then `APPROVED` or `REJECTED`). Refuses content breaking Apple's limits before sending;
    /// an identifier already taken is Apple's 409 `MessageAlreadyExistsError` (`.rejected`).
    public func uploadRetentionMessage(
        _ identifier: UUID, _ content: RetentionMessageContent, environment: AppStoreEnvironment = .production, logger: Logger? = nil
    ) async throws {
        if let problem = content.problem { throw AppStoreAPIError.invalidRequest(reason: problem) }
        let call = AppStoreAPICall(
            method: .put, path: "/inApps/v1/messaging/message/" + Self.uuidPath(identifier),
            route: "/inApps/v1/messaging/message/{messageIdentifier}", body: try Self.encoded(RetentionMessagingWire.UploadMessage(content))
        )
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Delete Message. Not idempotent at Apple: an unknown identifier is 404
    /// `MessageNotFoundError` (`.rejected` with errorCode 4040015).
    public func deleteRetentionMessage(
        _ identifier: UUID, environment: AppStoreEnvironment = .production, logger: Logger? = nil
    ) async throws {
        let call = AppStoreAPICall(
            method: .delete, path: "/inApps/v1/messaging/message/" + Self.uuidPath(identifier),
            route: "/inApps/v1/messaging/message/{messageIdentifier}")
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Get Message List: every uploaded message with its review state, as Apple lists them.
    public func retentionMessages(environment: AppStoreEnvironment = .production, logger: Logger? = nil) async throws -> [RetentionMessage]
    {
        let call = AppStoreAPICall(method: .get, path: "/inApps/v1/messaging/message/list", route: "/inApps/v1/messaging/message/list")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.MessageList.self, body, in: environment)
            return try (wire.messageIdentifiers ?? []).map { item throws(AppStoreAPIError) in
                guard let identifier = item.messageIdentifier, !identifier.isEmpty else { throw .malformedAnswer(environment: environment) }
                return RetentionMessage(identifier: identifier, stateRaw: item.messageState)
            }
        }
    }

    /// Configure Default Message: the approved message `messageIdentifier` is shown for
    /// `productID` in `locale` (like `en-US`) when the real-time endpoint gives none.
    public func configureDefaultRetentionMessage(
        productID: String, locale: String, messageIdentifier: UUID, environment: AppStoreEnvironment = .production, logger: Logger? = nil
    ) async throws {
        let body = RetentionMessagingWire.DefaultMessage(messageIdentifier: messageIdentifier.uuidString.lowercased())
        let call = AppStoreAPICall(
            method: .put, path: try Self.defaultMessagePath(productID: productID, locale: locale),
            route: "/inApps/v1/messaging/default/{productId}/{locale}", body: try Self.encoded(body))
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// Get Default Message: the message identifier configured for `productID` in `locale`;
    /// none configured is Apple's 404 `DefaultMessageNotFoundError`.
    public func defaultRetentionMessage(
        productID: String, locale: String, environment: AppStoreEnvironment = .production, logger: Logger? = nil
    ) async throws -> String {
        let call = AppStoreAPICall(
            method: .get, path: try Self.defaultMessagePath(productID: productID, locale: locale),
            route: "/inApps/v1/messaging/default/{productId}/{locale}")
        return try await perform(call, in: [environment], logger: logger) { environment, body throws(AppStoreAPIError) in
            let wire = try decodeJSON(RetentionMessagingWire.DefaultMessage.self, body, in: environment)
            guard let identifier = wire.messageIdentifier, !identifier.isEmpty else { throw .malformedAnswer(environment: environment) }
            return identifier
        }
    }

    /// Delete Default Message for `productID` in `locale`.
    public func deleteDefaultRetentionMessage(
        productID: String, locale: String, environment: AppStoreEnvironment = .production, logger: Logger? = nil
    ) async throws {
        let call = AppStoreAPICall(
            method: .delete, path: try Self.defaultMessagePath(productID: productID, locale: locale),
            route: "/inApps/v1/messaging/default/{productId}/{locale}")
        try await perform(call, in: [environment], logger: logger) { _, _ throws(AppStoreAPIError) in () }
    }

    /// A UUID as a path segment, lower case.
    static func uuidPath(_ identifier: UUID) -> String {
        identifier.uuidString.lowercased()
    }

    private static func defaultMessagePath(productID: String, locale: String) throws(AppStoreAPIError) -> String {
        "/inApps/v1/messaging/default/" + (try pathID(productID)) + "/" + (try pathID(locale))
    }
}
