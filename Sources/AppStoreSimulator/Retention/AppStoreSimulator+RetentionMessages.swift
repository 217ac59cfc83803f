import Foundation
import NIOConcurrencyHelpers

/// Retention Messaging API: messages and default messages, per app and environment.
extension AppStoreSimulator {
    /// Upload Message: Apple's limits, images that exist in the right size, no identifier
    /// twice, at most 2,000 messages; the message starts `PENDING`.
    func apiUploadRetentionMessage(
        _ identifier: String, body: [UInt8], environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) {
        let id = try Self.retentionIdentifier(identifier)
        let images = try RetentionMessageUploadRules.images(in: body)
        try changeRetention { retention in
            var app = retention[bundleID, environment]
            guard app.messages[id] == nil else { return .messageExists }
            guard app.messages.count < RetentionState.maximumUploads else { return .tooManyMessages }
            for image in images {
                guard let stored = app.images[image.identifier] else { return .imageNotFound }
                guard stored.imageSize == image.size else { return .badImageSize }
            }
            app.messages[id] = SimRetentionUpload(identifier: id, uploadedAt: now, imageIdentifiers: images.map(\.identifier))
            retention[bundleID, environment] = app
            return nil
        }
    }

    /// Delete Message: 404 `MessageNotFoundError` for an unknown one; default messages
    /// naming it go with it.
    func apiDeleteRetentionMessage(_ identifier: String, environment: SimEnvironment, bundleID: String) throws(APIError) {
        let id = try Self.retentionIdentifier(identifier)
        try changeRetention { retention in
            var app = retention[bundleID, environment]
            guard app.messages.removeValue(forKey: id) != nil else { return .messageNotFound }
            app.defaultMessages = app.defaultMessages.filter { $0.value != id }
            retention[bundleID, environment] = app
            return nil
        }
    }

    /// Get Message List: `{"messageIdentifiers": [{"messageIdentifier", "messageState"}]}`, oldest first.
    func apiRetentionMessageList(environment: SimEnvironment, bundleID: String, now: Date) -> JSONValue {
        box.withLockedValue { state in
            let review = state.retention.review
            let items = state.retention[bundleID, environment].messages.values.sorted(by: Self.uploadOrder).map { message in
                JSONValue.object([
                    ("messageIdentifier", .string(message.identifier)),
                    ("messageState", .string(message.state(at: now, review: review).rawValue)),
                ])
            }
            return .object([("messageIdentifiers", .array(items))])
        }
    }

    /// Configure Default Message: an approved message (whose images are approved) for a
    /// product and locale.
    func apiConfigureDefaultRetentionMessage(
        productID: String, locale: String, body: [UInt8], environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) {
        let key = try Self.defaultMessageKey(productID, locale)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let text = object["messageIdentifier"] as? String
        else { throw .invalidRequest }
        let id = try Self.retentionIdentifier(text)
        try changeRetention { retention in
            var app = retention[bundleID, environment]
            guard let message = app.messages[id] else { return .messageNotFound }
            guard message.state(at: now, review: retention.review) == .approved else { return .messageNotApproved }
            for image in message.imageIdentifiers where app.images[image]?.state(at: now, review: retention.review) != .approved {
                return .imageNotApproved
            }
            app.defaultMessages[key] = id
            retention[bundleID, environment] = app
            return nil
        }
    }

    /// Get Default Message: `{"messageIdentifier"}`, or 404 `DefaultMessageNotFoundError`.
    func apiDefaultRetentionMessage(
        productID: String, locale: String, environment: SimEnvironment, bundleID: String
    ) throws(APIError) -> JSONValue {
        let key = try Self.defaultMessageKey(productID, locale)
        let id = try withRetention { retention -> Result<String, APIError> in
            retention[bundleID, environment].defaultMessages[key].map { .success($0) } ?? .failure(.defaultMessageNotFound)
        }
        return .object([("messageIdentifier", .string(id))])
    }

    /// Delete Default Message, or 404 `DefaultMessageNotFoundError`.
    func apiDeleteDefaultRetentionMessage(productID: String, locale: String, environment: SimEnvironment, bundleID: String) throws(APIError)
    {
        let key = try Self.defaultMessageKey(productID, locale)
        try changeRetention { retention in
            guard retention[bundleID, environment].defaultMessages.removeValue(forKey: key) != nil else {
                return .defaultMessageNotFound
            }
            return nil
        }
    }

    /// Runs `change` on the retention state under the simulator's lock; throws the error it returns.
    func changeRetention(_ change: (inout RetentionState) -> APIError?) throws(APIError) {
        if let error = box.withLockedValue({ change(&$0.retention) }) { throw error }
    }

    /// Runs `change` on the retention state under the simulator's lock.
    func withRetention<T>(_ change: (inout RetentionState) -> Result<T, APIError>) throws(APIError) -> T {
        try box.withLockedValue { change(&$0.retention) }.get()
    }

    /// A path identifier as the simulator keys it: a UUID, lower case; else Apple's 400.
    static func retentionIdentifier(_ text: String) throws(APIError) -> String {
        guard let uuid = UUID(uuidString: text) else { throw .invalidRequest }
        return uuid.uuidString.lowercased()
    }

    /// Uploads oldest first, then by identifier.
    static func uploadOrder(_ a: SimRetentionUpload, _ b: SimRetentionUpload) -> Bool {
        (a.uploadedAt, a.identifier) < (b.uploadedAt, b.identifier)
    }

    /// `productId|locale`, the locale like `en-US` (or `en_US`); else 400 `InvalidLocaleError`.
    private static func defaultMessageKey(_ productID: String, _ locale: String) throws(APIError) -> String {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard (1...3).contains(parts.count), parts.allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy(\.isLetter) }) else {
            throw .invalidLocale
        }
        return productID + "|" + locale
    }
}
