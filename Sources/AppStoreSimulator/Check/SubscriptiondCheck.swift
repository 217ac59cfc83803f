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

    /// Links every customer to its app user id the way an app does: `POST /v1/receipts` (which
    /// also records the receipt's original application version), and for customers with a
    /// StoreKit 2 AppTransaction also `POST /v1/app-transactions`. Returns the customers whose
    /// receipt was not accepted at once (200) or queued (202), or whose AppTransaction got no 200.
    public func linkCustomers() async throws -> [String] {
        var failed: [String] = []
        for customer in simulator.truth().customers {
            let body: [String: String] = [
                "app_user_id": customer.appUserID, "receipt_data": customer.receiptData, "bundle_id": customer.bundleID,
            ]
            let response = try await request("POST", "/v1/receipts", body: try JSONSerialization.data(withJSONObject: body))
            var linked = response.status == 200 || response.status == 202
            if let signed = customer.signedAppTransaction {
                let body = ["app_user_id": customer.appUserID, "signed_app_transaction": signed]
                let answer = try await request("POST", "/v1/app-transactions", body: try JSONSerialization.data(withJSONObject: body))
                linked = linked && answer.status == 200
            }
            if !linked { failed.append(customer.appUserID) }
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
                statuses.append(
                    response.status == 200
                        ? ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any])?["status"] as? String
                            ?? "unreadable"
                        : "HTTP \(response.status)")
            }
            let after = simulator.truth(of: customer, at: Date())
            let matches = { (truth: CustomerTruth) in truth.subscriptions.map(\.status.rawValue) == statuses }
            if !matches(before) && !matches(after) {
                mismatches.append(
                    "\(customer.id) (\(customer.scenario.rawValue)): \(statuses), truth \(after.subscriptions.map(\.status.rawValue))")
            }
        }
        return mismatches
    }

    /// Compares status and entitlement of every subscription, entitled groups, every catalog
    /// entitlement (`GET /v1/subscribers/{id}/entitlements`) and eligibility for those of
    /// `productIDs` the customer's app sells with the truth.
    public func compare(productIDs: [String]) async throws -> [CustomerCheck] {
        var results: [CustomerCheck] = []
        for customer in simulator.customers {
            let before = simulator.truth(of: customer, at: Date())
            let subscriber = try await request("GET", "/v1/subscribers/\(customer.id)")
            let entitlements = try await request("GET", "/v1/subscribers/\(customer.id)/entitlements")
            let asked = productIDs.filter { before.eligibility[$0] != nil }
            var eligibility: [String: String] = [:]
            if !asked.isEmpty {
                let question = try JSONSerialization.data(
                    withJSONObject: ["app_user_id": customer.id, "product_ids": asked] as [String: Any])
                let answer = try await request("POST", "/v1/eligibility", body: question)
                eligibility = CustomerCheck.object(answer.body)["eligibility"] as? [String: String] ?? [:]
            }
            let after = simulator.truth(of: customer, at: Date())
            let answers = CustomerCheck.Answers(
                subscriberStatus: subscriber.status, subscriber: subscriber.body,
                entitlementsStatus: entitlements.status, entitlements: entitlements.body, eligibility: eligibility
            )
            let early = CustomerCheck(truth: before, answers: answers, productIDs: asked)
            results.append(early.agrees ? early : CustomerCheck(truth: after, answers: answers, productIDs: asked))
        }
        return results
    }

    /// ``compare(productIDs:)`` again every half second while a customer disagrees, until
    /// `deadline`: a subscription that ends while the check runs (a sandbox period is minutes
    /// long) is moved by subscriptiond's status sweep a moment later, as the app would see.
    public func compare(productIDs: [String], until deadline: Date) async throws -> [CustomerCheck] {
        var results = try await compare(productIDs: productIDs)
        while results.contains(where: { !$0.agrees }) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(500))
            results = try await compare(productIDs: productIDs)
        }
        return results
    }

    private func request(_ method: String, _ path: String, body: Data? = nil) async throws -> SimHTTPResponse {
        var headers = [("Authorization", "Bearer \(adminToken)")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await SimHTTPClient.send(
            method, to: baseURL.appendingPathComponent(path), headers: headers,
            body: body.map { Array($0) } ?? [], timeout: .seconds(30))
    }
}
