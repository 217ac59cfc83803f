import Foundation
import NIOConcurrencyHelpers

/// The App Store Server API's notification endpoints: the history of every v2 notification
/// (sent, failed or dropped) and test notifications.
extension AppStoreSimulator {
    /// Get Notification History: the app's v2 notifications in `environment` whose
    /// `signedDate` lies in `[startDate, endDate]`, filtered as asked, 20 a page. Like Apple,
    /// refuses a `startDate` more than 180 days before `now` (400, 4000023).
    func apiNotificationHistory(
        body: [UInt8], paginationToken: String?, environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> JSONValue {
        let query = try HistoryQuery(body, now: now)
        let owner: SimCustomer? = query.transactionID.flatMap { id in
            customers.first { $0.environment == environment && $0.bundleID == bundleID && $0.ownsTransaction(id) }
        }
        if query.transactionID != nil, owner == nil { throw .transactionNotFound }
        let ids = Set(customers.filter { $0.environment == environment && $0.bundleID == bundleID }.map(\.id))
        let (attempts, tests) = box.withLockedValue { ($0.api.attempts, $0.api.tests) }
        var candidates = notifications().filter { $0.version == .v2 && ids.contains($0.customerID) }
        if owner == nil {
            candidates += tests.filter { $0.bundleID == bundleID && $0.notification.environment == environment }.map(\.notification)
        }
        let matching = candidates.filter { notification in
            guard notification.date >= query.start, notification.date <= query.end else { return false }
            if let owner, notification.customerID != owner.id { return false }
            if let type = query.notificationType, notification.typeV2?.notificationType != type { return false }
            if query.onlyFailures {
                let tried = attempts[notification.notificationUUID ?? ""] ?? []
                if tried.contains(where: { $0.result == SendAttempt.success }) { return false }
            }
            return true
        }
        let page = try APIPage.slice(matching, token: paginationToken, invalid: .badRequest(4_000_006, "Invalid pagination token."))
        let items = page.items.map { notification in
            Self.historyItem(notification, attempts: attempts[notification.notificationUUID ?? ""] ?? [])
        }
        var members: [(String, JSONValue)] = []
        if page.hasMore { members.append(("paginationToken", .string(page.nextToken))) }
        members += [("hasMore", .bool(page.hasMore)), ("notificationHistory", .array(items))]
        return .object(members)
    }

    /// Request a Test Notification: makes a signed `TEST`, sends it to the notification target
    /// when one is set, and returns its token.
    func apiRequestTestNotification(
        environment: SimEnvironment, bundleID: String, now: Date
    ) throws(APIError) -> (token: String, notification: SimNotification, target: URL?) {
        let notification: SimNotification
        do {
            notification = try testNotification(bundleID: bundleID, environment: environment, at: now)
        } catch {
            throw .internalError(status: 500)
        }
        let token =
            (notification.notificationUUID ?? UUID().uuidString).lowercased() + "_" + String(Int64(now.timeIntervalSince1970 * 1_000))
        let target = box.withLockedValue { state in
            state.api.tests.append((token, bundleID, notification))
            return state.api.notificationTarget
        }
        return (token, notification, target)
    }

    /// Get Test Notification Status: `{signedPayload, sendAttempts}`.
    func apiTestNotificationStatus(_ token: String, environment: SimEnvironment, bundleID: String) throws(APIError) -> JSONValue {
        let (found, attempts) = box.withLockedValue { state in
            let found = state.api.tests.first { $0.token == token && $0.bundleID == bundleID && $0.notification.environment == environment }
            return (found, state.api.attempts[found?.notification.notificationUUID ?? ""] ?? [])
        }
        guard let found else { throw .testNotificationNotFound }
        return Self.historyItem(found.notification, attempts: attempts)
    }

    /// `{"signedPayload","sendAttempts"}` of one notification.
    static func historyItem(_ notification: SimNotification, attempts: [SendAttempt]) -> JSONValue {
        let payload = (try? JSONSerialization.jsonObject(with: Data(notification.body)) as? [String: Any])?["signedPayload"] as? String
        return .object([
            ("signedPayload", .string(payload ?? "")),
            ("sendAttempts", .array(attempts.map(\.json))),
        ])
    }
}

/// The body of a Get Notification History request.
struct HistoryQuery {
    /// How far back Apple keeps notification history.
    static let window: TimeInterval = 180 * 86_400

    var start: Date
    var end: Date
    var notificationType: String?
    var transactionID: String?
    var onlyFailures: Bool

    init(_ body: [UInt8], now: Date) throws(APIError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let start = Self.millis(object["startDate"]), let end = Self.millis(object["endDate"])
        else { throw .badRequest(4_000_000, "startDate and endDate (milliseconds) are required.") }
        guard end > start else { throw .badRequest(4_000_028, "endDate must be after startDate.") }
        guard start / 1_000 >= now.addingTimeInterval(-Self.window).timeIntervalSince1970 else {
            throw .badRequest(4_000_023, "startDate is more than 180 days in the past.")
        }
        self.start = Date(timeIntervalSince1970: start / 1_000)
        self.end = Date(timeIntervalSince1970: end / 1_000)
        notificationType = object["notificationType"] as? String
        transactionID = object["transactionId"] as? String
        onlyFailures = object["onlyFailures"] as? Bool ?? false
    }

    private static func millis(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is String) else { return nil }
        let double = number.doubleValue
        return double.isFinite && double >= 0 ? double : nil
    }
}
