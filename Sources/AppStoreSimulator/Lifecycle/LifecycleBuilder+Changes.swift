import Foundation

extension LifecycleBuilder {
    /// Turns auto-renew on or off `fraction` of the way through the current period
    /// (`DID_CHANGE_RENEWAL_STATUS`); nothing happens when it already is.
    mutating func setAutoRenew(_ enabled: Bool, at fraction: Double) {
        guard current.renewal.autoRenewStatus != enabled else { return }
        advance(to: momentInCurrentPeriod(fraction))
        let moment = now
        modify {
            $0.renewal.autoRenewStatus = enabled
            $0.renewal.autoRenewStatusChangeDate = moment
        }
        record(.autoRenew(enabled))
    }

    /// The period ends with auto-renew off: Apple sets `expiration_intent` 1 and sends
    /// no v1 notification (only verifyReceipt shows it).
    mutating func lapse() {
        guard !current.renewal.autoRenewStatus else { return }
        advance(to: current.latest.expiresDate)
        modify {
            $0.renewal.expirationIntent = .customerCancelled
            $0.renewal.isInBillingRetryPeriod = false
        }
        record(.lapse)
    }

    /// The renewal charge fails at the end of the period (`DID_FAIL_TO_RENEW`): Apple retries,
    /// inside a grace period when the app enabled one.
    mutating func failBilling(grace: Bool) {
        let latest = current.latest
        advance(to: latest.expiresDate)
        let graceEnd = grace ? latest.expiresDate.addingTimeInterval(clock.gracePeriod(for: currentProduct.period)) : nil
        modify {
            $0.renewal.isInBillingRetryPeriod = true
            $0.renewal.expirationIntent = .billingError
            $0.renewal.gracePeriodExpiresDate = graceEnd
        }
        record(.billingFailed(grace: grace))
    }

    /// The retried charge succeeds `fraction` of the way through the grace period (or, with
    /// `afterGrace`, of the retry time left after it) (`DID_RECOVER`). Inside the grace period the
    /// renewal date stays; later, the new period starts at the recovery.
    mutating func recover(at fraction: Double, afterGrace: Bool = false) {
        let failedAt = current.latest.expiresDate
        let graceEnd = current.renewal.gracePeriodExpiresDate
        let moment: Date
        if let graceEnd, !afterGrace {
            moment = failedAt.addingTimeInterval((graceEnd.timeIntervalSince(failedAt) * fraction).rounded())
        } else {
            let start = graceEnd ?? failedAt
            let window = clock.billingRetryPeriod - start.timeIntervalSince(failedAt)
            moment = start.addingTimeInterval(max(1, (window * fraction).rounded()))
        }
        advance(to: moment)
        let product = catalog.product(current.renewal.autoRenewProductID)!
        var period = makePeriod(
            product, from: now,
            originalTransactionID: current.originalTransactionID,
            originalPurchaseDate: current.latest.originalPurchaseDate,
            intro: nil
        )
        period.isRenewal = true
        if let graceEnd, now < graceEnd {
            period.expiresDate = clock.end(of: product.period, from: failedAt)
        }
        introPeriodsLeft = 0
        modify {
            $0.transactions.append(period)
            $0.renewal.productID = product.productID
            $0.renewal.isInBillingRetryPeriod = false
            $0.renewal.expirationIntent = nil
            $0.renewal.gracePeriodExpiresDate = nil
        }
        record(.recovery)
    }

    /// Apple gives up retrying: the subscription is expired for a billing error. Silent in v1.
    mutating func endBillingRetry() {
        let failedAt = current.latest.expiresDate
        advance(to: failedAt.addingTimeInterval(clock.billingRetryPeriod))
        let moment = now
        modify {
            $0.renewal.isInBillingRetryPeriod = false
            $0.renewal.gracePeriodExpiresDate = nil
            $0.renewal.autoRenewStatus = false
            $0.renewal.autoRenewStatusChangeDate = moment
        }
        record(.billingRetryEnded)
    }

    /// Apple support refunds the current period `fraction` of the way through it (`CANCEL`):
    /// in full, or `prorated` by the share of the period not yet used (as Apple states it, in
    /// thousandths of a percent).
    mutating func refund(at fraction: Double, reason: String, prorated: Bool = false) {
        advance(to: momentInCurrentPeriod(fraction))
        let moment = now
        let latest = current.latest
        let percentage = prorated ? Self.unusedShare(from: latest.purchaseDate, to: latest.expiresDate, at: moment) : nil
        modify {
            $0.transactions[$0.transactions.count - 1].cancellationDate = moment
            $0.transactions[$0.transactions.count - 1].cancellationReason = reason
            $0.transactions[$0.transactions.count - 1].refundPercentage = percentage
            $0.renewal.autoRenewStatus = false
            $0.renewal.autoRenewStatusChangeDate = moment
        }
        record(.refund)
    }

    /// The customer picks `product` for the next renewal (`DID_CHANGE_RENEWAL_PREF`).
    mutating func changeRenewalPreference(to product: SimProduct, at fraction: Double) {
        advance(to: momentInCurrentPeriod(fraction))
        modify { $0.renewal.autoRenewProductID = product.productID }
        record(.renewalPreference)
    }

    /// The customer switches to `product` at once (`INTERACTIVE_RENEWAL`): the current period
    /// ends now with `is_upgraded` and a cancellation date, and the new product's period starts.
    mutating func switchNow(to product: SimProduct, at fraction: Double) {
        advance(to: momentInCurrentPeriod(fraction))
        let moment = now
        let period = makePeriod(
            product, from: moment,
            originalTransactionID: current.originalTransactionID,
            originalPurchaseDate: current.latest.originalPurchaseDate,
            intro: nil
        )
        introPeriodsLeft = 0
        modify {
            $0.transactions[$0.transactions.count - 1].isUpgraded = true
            $0.transactions[$0.transactions.count - 1].cancellationDate = moment
            $0.transactions.append(period)
            $0.renewal.productID = product.productID
            $0.renewal.autoRenewProductID = product.productID
        }
        record(.switchNow)
    }

    /// Lets time pass with no event until `lead` before `moment`, where the run ends: what
    /// happens at `moment` comes after the run, unannounced.
    mutating func endRun(_ lead: TimeInterval, before moment: Date) {
        advance(to: moment.addingTimeInterval(-lead))
    }

    /// The share of `start..<end` still ahead at `moment`, in thousandths of a percent
    /// (0...100000), as Apple states a prorated refund's `revocationPercentage`.
    static func unusedShare(from start: Date, to end: Date, at moment: Date) -> Int {
        let length = end.timeIntervalSince(start)
        guard length > 0 else { return 0 }
        let left = min(max(end.timeIntervalSince(moment), 0), length)
        return Int((left / length * 100_000).rounded())
    }

    /// Lets a lapse pass after the current period ended: `days` days (scaled in sandbox), or
    /// without them one length of the current product.
    mutating func waitLapse(days: Int?) {
        guard let days else { return wait(periods: 1) }
        advance(to: now.addingTimeInterval(clock.length(days: days)))
    }

    /// Lets `periods` lengths of the current product pass.
    mutating func wait(periods: Int) {
        advance(to: clock.end(of: currentProduct.period, from: now, count: periods))
    }
}
