import AppStoreSimulator
import Foundation
import Testing

@Suite("Scenarios: notification order and truth")
struct ScenarioTests {
    /// Builds one production customer and returns it with its truth at the fixed end.
    private func run(_ spec: CustomerSpec) throws -> (SimCustomer, CustomerTruth, SubscriptionTruth) {
        let simulator = makeSimulator()
        let customer = try #require(try simulator.addCustomers([spec], endingAt: fixedEnd).first)
        let truth = simulator.truth(of: customer, at: fixedEnd)
        return (customer, truth, try #require(truth.subscriptions.first))
    }

    @Test func trialRenewalsStayActive() throws {
        let (customer, truth, sub) = try run(
            CustomerSpec(name: "a", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 2))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_RENEW"])
        #expect(sub.status == .active && sub.entitled && sub.autoRenew)
        #expect(customer.state(at: fixedEnd).transactions.first?.isTrialPeriod == true)
        #expect(truth.eligibility["com.example.pro.monthly"] == .ineligible)
        #expect(truth.eligibility["com.example.premium.monthly"] == .noIntroOffer)
        #expect(truth.eligibility["com.example.news.weekly"] == .eligible)
        #expect(truth.entitledGroups == ["20500000"])
    }

    @Test func trialCancelExpiryEndsExpiredCustomerCancelled() throws {
        let (customer, truth, sub) = try run(
            CustomerSpec(name: "b", scenario: .cancelExpire, productID: "com.example.pro.monthly", renewals: 0))
        #expect(types(customer) == ["INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS"])
        #expect(sub.status == .expired && !sub.entitled && !sub.autoRenew)
        #expect(sub.expirationIntent == .customerCancelled)
        #expect(truth.eligibility["com.example.pro.monthly"] == .ineligible)
        #expect(truth.eligibility["com.example.pro.yearly"] == .ineligible)
        #expect(customer.lastEventDate <= fixedEnd)
    }

    @Test func cancelPendingIsActiveWithoutAutoRenew() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(name: "c", scenario: .cancelPending, productID: "com.example.pro.yearly", renewals: 0))
        #expect(types(customer) == ["INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS"])
        #expect(sub.status == .active && !sub.autoRenew && sub.inIntroOffer)
    }

    @Test func truthIsAFunctionOfTime() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [CustomerSpec(name: "later", scenario: .cancelPending, productID: "com.example.pro.monthly", renewals: 1)],
            endingAt: fixedEnd
        )[0]
        let expires = try #require(simulator.truth(of: customer, at: fixedEnd).subscriptions.first?.expiresAt)
        let after = try #require(simulator.truth(of: customer, at: expires.addingTimeInterval(1)).subscriptions.first)
        // Nothing happens after the end: the status moves with time, the facts do not.
        #expect(after.status == .expired && !after.entitled && after.expirationIntent == nil)
        let before = simulator.truth(of: customer, at: customer.notifications[0].date.addingTimeInterval(-1))
        #expect(before.subscriptions.isEmpty && before.eligibility["com.example.pro.monthly"] == .eligible)
    }

    @Test func graceThenRecoveryEndsActive() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(name: "d", scenario: .graceRecovery, productID: "com.example.pro.monthly", renewals: 1))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW", "DID_RECOVER"])
        #expect(sub.status == .active && sub.expirationIntent == nil && sub.gracePeriodExpiresAt == nil)
    }

    @Test func gracePeriodIsEntitled() throws {
        let (customer, _, sub) = try run(CustomerSpec(name: "e", scenario: .gracePeriod, productID: "com.example.pro.monthly", renewals: 1))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW"])
        #expect(sub.status == .gracePeriod && sub.entitled && sub.expirationIntent == .billingError)
        let graceEnd = try #require(sub.gracePeriodExpiresAt)
        let later = SubscriptionTruthProbe.status(customer, at: graceEnd.addingTimeInterval(1))
        #expect(later == .billingRetry)
    }

    @Test func billingRetryThenExpiry() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(name: "f", scenario: .billingRetryExpire, productID: "com.example.premium.monthly", renewals: 1))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW"])
        #expect(sub.status == .expired && sub.expirationIntent == .billingError && !sub.entitled)
    }

    @Test func billingRetryIsNotEntitled() throws {
        let (_, truth, sub) = try run(
            CustomerSpec(name: "g", scenario: .billingRetry, productID: "com.example.premium.monthly", renewals: 0))
        #expect(sub.status == .billingRetry && !sub.entitled && sub.gracePeriodExpiresAt == nil)
        #expect(truth.entitledGroups.isEmpty)
        // No offer was ever used and nothing is entitled: the trial of the group is open again.
        #expect(truth.eligibility["com.example.pro.monthly"] == .eligible)
    }

    @Test func retryRecoveryRestartsThePeriod() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(name: "h", scenario: .billingRetryRecovery, productID: "com.example.pro.monthly", renewals: 1))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW", "DID_RECOVER"])
        let state = customer.state(at: fixedEnd).subscriptions[0]
        #expect(state.latest.purchaseDate > state.transactions[1].expiresDate)
        #expect(sub.status == .active)
    }

    @Test func refundEndsRevokedAndTheTrialStillCounts() throws {
        let (customer, truth, sub) = try run(CustomerSpec(name: "i", scenario: .refund, productID: "com.example.pro.monthly", renewals: 0))
        #expect(types(customer) == ["INITIAL_BUY", "CANCEL"])
        #expect(sub.status == .revoked && !sub.entitled && sub.revokedAt != nil && sub.revocationReason != nil)
        #expect(truth.eligibility["com.example.pro.monthly"] == .ineligible)
    }

    @Test func upgradeEndsTheOldPeriodAtOnce() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(
                name: "j", scenario: .upgrade, productID: "com.example.pro.monthly",
                targetProductID: "com.example.premium.monthly", renewals: 1
            ))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "INTERACTIVE_RENEWAL"])
        #expect(sub.productID == "com.example.premium.monthly" && sub.status == .active)
        let transactions = customer.state(at: fixedEnd).subscriptions[0].transactions
        #expect(transactions[1].isUpgraded && transactions[1].cancellationDate == transactions[2].purchaseDate)
        #expect(Set(transactions.map(\.originalTransactionID)).count == 1)
    }

    @Test func downgradeTakesEffectAtRenewal() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(
                name: "k", scenario: .downgrade, productID: "com.example.premium.monthly",
                targetProductID: "com.example.pro.monthly", renewals: 1
            ))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_RENEW"])
        #expect(sub.productID == "com.example.pro.monthly" && sub.status == .active)
        #expect(customer.state(at: fixedEnd).transactions.allSatisfy { !$0.isTrialPeriod })
    }

    @Test func crossgradeOfAnotherLengthWaitsForRenewal() throws {
        let (customer, _, sub) = try run(
            CustomerSpec(
                name: "l", scenario: .crossgrade, productID: "com.example.pro.monthly",
                targetProductID: "com.example.pro.yearly", renewals: 0
            ))
        #expect(types(customer) == ["INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF", "DID_RENEW"])
        #expect(sub.productID == "com.example.pro.yearly")
    }

    @Test func resubscribeAfterLapseKeepsTheOriginalTransaction() throws {
        let (customer, truth, sub) = try run(
            CustomerSpec(name: "m", scenario: .resubscribe, productID: "com.example.pro.monthly", renewals: 1))
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "INTERACTIVE_RENEWAL"])
        #expect(sub.status == .active && sub.autoRenew && !sub.inTrial)
        #expect(customer.state(at: fixedEnd).subscriptions.count == 1)
        #expect(truth.subscriptions.count == 1)
    }

    @Test func sandboxCustomersRunOnAcceleratedTime() throws {
        let simulator = makeSimulator()
        let customer = try #require(
            try simulator.addCustomers(
                [CustomerSpec(name: "n", scenario: .trialRenews, environment: .sandbox, productID: "com.example.pro.monthly", renewals: 3)],
                endingAt: fixedEnd
            ).first)
        let periods = customer.state(at: fixedEnd).transactions
        #expect(periods.count == 4)
        #expect(periods[0].expiresDate.timeIntervalSince(periods[0].purchaseDate) == 180)  // 1 week ≈ 3 minutes
        #expect(periods[1].expiresDate.timeIntervalSince(periods[1].purchaseDate) == 300)  // 1 month ≈ 5 minutes
        #expect(customer.notifications.allSatisfy { $0.environment == .sandbox })
        #expect(fixedEnd.timeIntervalSince(periods[0].purchaseDate) < 3_600)
    }

    @Test func sandboxStopsRenewingAfterFiveRenewals() throws {
        let simulator = makeSimulator()
        let customer = try #require(
            try simulator.addCustomers(
                [
                    CustomerSpec(
                        name: "o", scenario: .trialRenews, environment: .sandbox, productID: "com.example.premium.monthly", renewals: 9)
                ],
                endingAt: fixedEnd
            ).first)
        let sub = customer.state(at: fixedEnd).subscriptions[0]
        #expect(sub.transactions.count == 6)  // the purchase and Apple's 5 sandbox renewals
        #expect(!sub.renewal.autoRenewStatus)
        #expect(try jsonObject(try #require(customer.notifications.last).body)["auto_renew_status"] as? String == "false")
    }

    @Test("silent endings: the status holds at the end of the run and changes silentEndingLead later, with no notification after the run")
    func silentEndings() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(name: "lapses", scenario: .silentLapse, renewals: 1),
                CustomerSpec(name: "grace-ends", scenario: .silentGraceEnd, renewals: 1),
                CustomerSpec(name: "sandbox-lapses", scenario: .silentLapse, environment: .sandbox, renewals: 1),
            ], endingAt: fixedEnd)
        let after = fixedEnd.addingTimeInterval(ScenarioKind.silentEndingLead)
        for customer in customers {
            let changed: SimStatus = customer.scenario == .silentLapse ? .expired : .billingRetry
            #expect(SubscriptionTruthProbe.status(customer, at: fixedEnd) == customer.scenario.finalStatus, "\(customer.id)")
            #expect(
                SubscriptionTruthProbe.status(customer, at: after.addingTimeInterval(-1)) == customer.scenario.finalStatus, "\(customer.id)"
            )
            #expect(SubscriptionTruthProbe.status(customer, at: after.addingTimeInterval(1)) == changed, "\(customer.id)")
            #expect(customer.lastEventDate <= fixedEnd, "\(customer.id)")
        }
    }

    @Test func everyScenarioEndsInItsAdvertisedStatus() throws {
        let simulator = makeSimulator()
        let specs = ScenarioKind.allCases.map { kind in
            let paidApp = kind == .grandfathered || kind == .notGrandfathered
            return CustomerSpec(
                name: "all-\(kind.rawValue)", scenario: kind,
                bundleID: paidApp ? SimulatorConfiguration.demoPaidAppBundleID : nil, renewals: 1
            )
        }
        let customers = try simulator.addCustomers(specs, endingAt: fixedEnd)
        for customer in customers {
            let truth = simulator.truth(of: customer, at: fixedEnd)
            #expect(truth.subscriptions.first?.status == customer.scenario.finalStatus, "\(customer.id)")
            #expect(customer.lastEventDate <= fixedEnd, "\(customer.id)")
        }
    }
}

/// Status of a customer's first subscription at another moment.
enum SubscriptionTruthProbe {
    static func status(_ customer: SimCustomer, at date: Date) -> SimStatus? {
        customer.state(at: date).subscriptions.first?.status(at: date)
    }
}
