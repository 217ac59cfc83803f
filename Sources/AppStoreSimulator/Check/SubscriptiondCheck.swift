import Foundation

/// Asks a running subscriptiond — only through its public HTTP API — what it knows about
/// each simulated customer, and compares that with the simulator's truth.
///
/// Sandbox periods last minutes, so a subscription can expire while the check runs: each
/// customer's answers are compared with the truth just before and just after they were
/// read, and agreeing with either counts.
public struct SubscriptiondCheck: Sendable {
    /// subscriptiond's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Its `ADMIN_TOKEN`.
    public let adminToken: String
    /// The simulator whose truth is compared.
    public let simulator: AppStoreSimulator

    /// Creates a check against one subscriptiond.
    public init(baseURL: URL, adminToken: String, simulator: AppStoreSimulator) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.simulator = simulator
    }

    /// Links every customer to its app user id the way an app does: `POST /v1/receipts`.
    /// Returns the customers whose receipt was not accepted at once (200) or queued (202).
    public func linkCustomers() async throws -> [String] {
        var failed: [String] = []
        for customer in simulator.truth().customers {
            let body: [String: String] = ["app_user_id": customer.appUserID, "receipt_data": customer.receiptData, "bundle_id": customer.bundleID]
            let response = try await request("POST", "/v1/receipts", body: try JSONSerialization.data(withJSONObject: body))
            if response.status != 200 && response.status != 202 { failed.append(customer.appUserID) }
        }
        return failed
    }

    /// Subscriptions whose status differs from the truth, read by original transaction id
    /// (no app user needed): one line each, empty when all agree.
    public func statusMismatches() async throws -> [String] {
        var mismatches: [String] = []
        for customer in simulator.customers {
            let before = simulator.truth(of: customer, at: Date())
            var statuses: [String] = []
            for expected in before.subscriptions {
                let response = try await request("GET", "/v1/subscriptions/\(expected.originalTransactionID)")
                statuses.append(response.status == 200
                    ? ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any])?["status"] as? String ?? "unreadable"
                    : "HTTP \(response.status)")
            }
            let after = simulator.truth(of: customer, at: Date())
            let matches = { (truth: CustomerTruth) in truth.subscriptions.map(\.status.rawValue) == statuses }
            if !matches(before) && !matches(after) {
                mismatches.append("\(customer.id) (\(customer.scenario.rawValue)): \(statuses), truth \(after.subscriptions.map(\.status.rawValue))")
            }
        }
        return mismatches
    }

    /// Compares status and entitlement of every subscription, entitled groups and
    /// eligibility for `productIDs` with the truth.
    public func compare(productIDs: [String]) async throws -> [CustomerCheck] {
        var results: [CustomerCheck] = []
        for customer in simulator.customers {
            let before = simulator.truth(of: customer, at: Date())
            let subscriber = try await request("GET", "/v1/subscribers/\(customer.id)")
            let document = (try? JSONSerialization.jsonObject(with: Data(subscriber.body))) as? [String: Any] ?? [:]
            let question = try JSONSerialization.data(withJSONObject: ["app_user_id": customer.id, "product_ids": productIDs] as [String: Any])
            let answer = try await request("POST", "/v1/eligibility", body: question)
            let eligibility = ((try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])?["eligibility"] as? [String: String] ?? [:]
            let after = simulator.truth(of: customer, at: Date())
            let early = CustomerCheck(truth: before, subscriber: document, eligibility: eligibility, productIDs: productIDs)
            results.append(early.agrees ? early : CustomerCheck(truth: after, subscriber: document, eligibility: eligibility, productIDs: productIDs))
        }
        return results
    }

    private func request(_ method: String, _ path: String, body: Data? = nil) async throws -> SimHTTPResponse {
        var headers = [("Authorization", "Bearer \(adminToken)")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await SimHTTPClient.send(method, to: baseURL.appendingPathComponent(path), headers: headers,
                                            body: body.map { Array($0) } ?? [], timeout: .seconds(30))
    }
}

/// One customer's comparison.
public struct CustomerCheck: Sendable {
    /// What the simulator holds.
    public let truth: CustomerTruth
    /// subscriptiond's status per subscription, in the truth's order.
    public var actualStatuses: [String] = []
    /// subscriptiond's entitled groups.
    public var actualEntitledGroups: [String] = []
    /// subscriptiond's eligibility answers.
    public var actualEligibility: [String: String] = [:]
    /// Every disagreement, one sentence each.
    public var mismatches: [String] = []

    /// True when subscriptiond agrees with the truth on everything compared.
    public var agrees: Bool { mismatches.isEmpty }

    /// Compares one customer's answers from subscriptiond with one truth.
    init(truth: CustomerTruth, subscriber document: [String: Any], eligibility: [String: String], productIDs: [String]) {
        self.truth = truth
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
        actualEligibility = eligibility
        for product in productIDs where eligibility[product] != truth.eligibility[product]?.rawValue {
            mismatches.append("\(product): \(eligibility[product] ?? "no answer"), truth \(truth.eligibility[product]?.rawValue ?? "none")")
        }
    }
}
