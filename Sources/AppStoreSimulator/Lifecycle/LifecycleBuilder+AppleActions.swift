import Foundation

/// What Apple (or the developer through Apple) does to a subscription outside the customer's
/// purchases: reversals, revocations, extensions, the end of a grace period.
extension LifecycleBuilder {
    /// Apple reverses the refund of the current period `fraction` of the way through it
    /// (`REFUND_REVERSED`; silent in v1): the revocation disappears and the renewal info is
    /// `renewal` again, as it was before the refund.
    mutating func reverseRefund(at fraction: Double, restoring renewal: SimRenewalInfo) {
        advance(to: momentInCurrentPeriod(fraction))
        modify {
            $0.transactions[$0.transactions.count - 1].cancellationDate = nil
            $0.transactions[$0.transactions.count - 1].cancellationReason = nil
            $0.renewal = renewal
        }
        record(.refundReversed)
    }

    /// A family member loses the shared access `fraction` of the way through the current
    /// period (`REVOKE` in both versions): the period is revoked for "other" reasons.
    mutating func revokeFamilyAccess(at fraction: Double) {
        advance(to: momentInCurrentPeriod(fraction))
        let moment = now
        modify {
            $0.transactions[$0.transactions.count - 1].cancellationDate = moment
            $0.transactions[$0.transactions.count - 1].cancellationReason = "0"
            $0.renewal.autoRenewStatus = false
            $0.renewal.autoRenewStatusChangeDate = moment
        }
        record(.familyRevoked)
    }

    /// The developer extends the current period by `days` `fraction` of the way through it
    /// (`RENEWAL_EXTENDED`; silent in v1): the same transaction expires later, and so the
    /// renewal date moves with it.
    mutating func extendRenewal(days: Int, at fraction: Double) {
        advance(to: momentInCurrentPeriod(fraction))
        let extra = clock.length(days: days)
        modify {
            $0.transactions[$0.transactions.count - 1].expiresDate.addTimeInterval(extra)
        }
        record(.renewalExtended)
    }

    /// Renews until the current period uses no offer (Apple extends no offer periods), or
    /// until auto-renew stops.
    mutating func renewOutOfOffers() {
        for _ in 0..<5 where current.latest.isTrialPeriod || current.latest.isInIntroOfferPeriod || current.latest.offer != nil {
            guard current.renewal.autoRenewStatus else { return }
            renew()
        }
    }

    /// The grace period after a failed charge runs out while Apple still retries
    /// (`GRACE_PERIOD_EXPIRED`; silent in v1): nothing changes but the time, an hour later
    /// (a second in sandbox).
    mutating func expireGracePeriod() {
        guard let graceEnd = current.renewal.gracePeriodExpiresDate else { return }
        advance(to: graceEnd.addingTimeInterval(clock.scaled(3_600)))
        record(.gracePeriodExpired)
    }

    /// The customer asks Apple for a refund of the current period ten minutes into it
    /// (`CONSUMPTION_REQUEST`; silent in v1), and Apple declines it an hour later (`REFUND_DECLINED`;
    /// both scaled down in sandbox): nothing changes but the time. The run ends with the
    /// decline, so the request is an hour old then, well inside Apple's 12 hours.
    mutating func requestRefundAndDecline() {
        advance(to: now.addingTimeInterval(clock.scaled(600)))
        record(.consumptionRequest)
        advance(to: now.addingTimeInterval(clock.scaled(3_600)))
        record(.refundDeclined)
    }
}
