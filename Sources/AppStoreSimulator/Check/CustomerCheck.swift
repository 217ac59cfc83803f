import Foundation

/// One customer's comparison.
public struct CustomerCheck: Sendable {
    /// What subscriptiond answered about one customer, as read from its HTTP API.
    public struct Answers: Sendable {
        /// `GET /v1/subscribers/{id}`'s HTTP status.
        public var subscriberStatus: Int
        /// Its body (the subscriber JSON).
        public var subscriber: [UInt8]
        /// `GET /v1/subscribers/{id}/entitlements`'s HTTP status.
        public var entitlementsStatus: Int
        /// Its body (`{"app_user_id", "entitlements"}`).
        public var entitlements: [UInt8]
        /// `POST /v1/eligibility`'s answers, per product.
        public var eligibility: [String: String]

        /// Answers from their parts.
        public init(
            subscriberStatus: Int, subscriber: [UInt8], entitlementsStatus: Int, entitlements: [UInt8], eligibility: [String: String]
        ) {
            self.subscriberStatus = subscriberStatus
            self.subscriber = subscriber
            self.entitlementsStatus = entitlementsStatus
            self.entitlements = entitlements
            self.eligibility = eligibility
        }
    }

    /// What the simulator holds.
    public let truth: CustomerTruth
    /// subscriptiond's status per subscription, in the truth's order.
    public var actualStatuses: [String] = []
    /// subscriptiond's entitled groups.
    public var actualEntitledGroups: [String] = []
    /// subscriptiond's active entitlements as `id:source`, in the truth's order.
    public var actualEntitlements: [String] = []
    /// subscriptiond's eligibility answers.
    public var actualEligibility: [String: String] = [:]
    /// Every disagreement, one sentence each.
    public var mismatches: [String] = []

    /// True when subscriptiond agrees with the truth on everything compared.
    public var agrees: Bool { mismatches.isEmpty }

    /// Compares one customer's answers from subscriptiond with one truth; eligibility only for
    /// `productIDs`.
    public init(truth: CustomerTruth, answers: Answers, productIDs: [String]) {
        self.truth = truth
        if answers.subscriberStatus != 200 {
            mismatches.append("GET /v1/subscribers: HTTP \(answers.subscriberStatus), truth a known subscriber")
        }
        let document = Self.object(answers.subscriber)
        let subscriptions = document["subscriptions"] as? [[String: Any]] ?? []
        for expected in truth.subscriptions {
            let actual = subscriptions.first { $0["original_transaction_id"] as? String == expected.originalTransactionID }
            let status = actual?["status"] as? String ?? "missing"
            actualStatuses.append(status)
            if status != expected.status.rawValue {
                mismatches.append("\(expected.originalTransactionID): status \(status), truth \(expected.status.rawValue)")
            }
            if let entitled = actual?["entitled"] as? Bool, entitled != expected.entitled {
                mismatches.append("\(expected.originalTransactionID): entitled \(entitled), truth \(expected.entitled)")
            }
        }
        actualEntitledGroups = (document["entitled_groups"] as? [String] ?? []).sorted()
        if actualEntitledGroups != truth.entitledGroups {
            mismatches.append("entitled groups \(actualEntitledGroups), truth \(truth.entitledGroups)")
        }
        compareEntitlements(answers)
        actualEligibility = answers.eligibility
        for product in productIDs where answers.eligibility[product] != truth.eligibility[product]?.rawValue {
            mismatches.append(
                "\(product): \(answers.eligibility[product] ?? "no answer"), truth \(truth.eligibility[product]?.rawValue ?? "none")")
        }
    }

    /// Compares every entitlement's `active`, `source`, `product_id` and `expires_at` (to the second).
    private mutating func compareEntitlements(_ answers: Answers) {
        guard answers.entitlementsStatus == 200 else {
            mismatches.append("GET /v1/subscribers/…/entitlements: HTTP \(answers.entitlementsStatus)")
            return
        }
        let actual = Self.object(answers.entitlements)["entitlements"] as? [String: Any] ?? [:]
        for expected in truth.entitlements {
            guard let answer = actual[expected.id] as? [String: Any] else {
                mismatches.append("entitlement \(expected.id): missing")
                continue
            }
            let active = answer["active"] as? Bool
            let source = answer["source"] as? String
            let product = answer["product_id"] as? String
            let expires = answer["expires_at"] as? String
            if active == true { actualEntitlements.append("\(expected.id):\(source ?? "?")") }
            let grant = expected.grantedBy
            let truthExpires = grant?.expiresAt.map(AppleDate.rfc3339)
            if active != expected.active || source != grant?.source.rawValue || product != grant?.productID
                || Self.second(expires) != grant?.expiresAt.map(Self.second)
            {
                let seen = "active \(active.map(String.init) ?? "?"), \(source ?? "null"), \(product ?? "null"), until \(expires ?? "null")"
                let want =
                    "active \(expected.active), \(grant?.source.rawValue ?? "null"), \(grant?.productID ?? "null"), until \(truthExpires ?? "null")"
                mismatches.append("entitlement \(expected.id): \(seen); truth \(want)")
            }
        }
    }

    /// A JSON object body, or an empty one.
    static func object(_ body: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// An RFC 3339 time as whole seconds since 1970; `nil` for none or unreadable text.
    static func second(_ text: String?) -> Int64? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { return nil }
        return second(date)
    }

    /// `date` as whole seconds since 1970.
    static func second(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
