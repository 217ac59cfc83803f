extension ScenarioKind {
    /// Plays the scenario on `builder`; `random` decides when inside a period things happen.
    func play(_ plan: ScenarioPlan, renewals: Int, on builder: inout LifecycleBuilder, random: inout SeededRandom) {
        let moment = random.fraction(0.2...0.8)
        guard let product = plan.product, self != .lifetimeAndSubscription else {
            playPurchases(plan, renewals: renewals, on: &builder, moment: moment, random: &random)
            return
        }
        switch self {
        case .offerCode: builder.purchase(product, redeeming: .halfPriceCode(for: product, in: builder.storefront))
        case .familyRevoke: builder.purchase(product, familyShared: true)
        default: builder.purchase(product)
        }
        builder.renew(times: renewals)
        switch self {
        case .trialRenews:
            break
        case .cancelPending:
            builder.setAutoRenew(false, at: moment)
        case .cancelExpire:
            builder.setAutoRenew(false, at: moment)
            builder.lapse()
        case .gracePeriod:
            builder.failBilling(grace: true)
        case .graceRecovery:
            builder.failBilling(grace: true)
            builder.recover(at: moment)
        case .billingRetry:
            builder.failBilling(grace: false)
        case .billingRetryRecovery:
            builder.failBilling(grace: false)
            builder.recover(at: moment / 4, afterGrace: true)
        case .billingRetryExpire:
            builder.failBilling(grace: false)
            builder.endBillingRetry()
        case .refund:
            builder.refund(at: moment, reason: random.next() % 2 == 0 ? "0" : "1", prorated: plan.proratedRefund)
        case .upgrade:
            builder.switchNow(to: plan.target!, at: moment)
        case .downgrade:
            builder.changeRenewalPreference(to: plan.target!, at: moment)
            builder.renew()
        case .crossgrade where plan.target!.period == product.period:
            builder.switchNow(to: plan.target!, at: moment)
        case .crossgrade:
            builder.changeRenewalPreference(to: plan.target!, at: moment)
            builder.renew()
        case .resubscribe:
            builder.setAutoRenew(false, at: moment)
            builder.lapse()
            builder.waitLapse(days: plan.lapseDays)
            builder.purchase(plan.target ?? product)
        case .offerCode:
            break
        case .promotionalOffer:
            builder.setAutoRenew(false, at: moment)
            builder.lapse()
            builder.waitLapse(days: plan.lapseDays)
            builder.purchase(product, redeeming: .comeback(for: product, in: builder.storefront))
        case .refundReversed:
            // Both early in the period, so that even a 3-minute sandbox week has not run out
            // by the end the customer is built for.
            let before = builder.current.renewal
            builder.refund(at: moment / 4, reason: random.next() % 2 == 0 ? "0" : "1")
            builder.reverseRefund(at: 0.25 + moment / 8, restoring: before)
        case .familyRevoke:
            builder.revokeFamilyAccess(at: moment)
        case .renewalExtended:
            builder.renewOutOfOffers()
            let days = [7, 14, 30, 90][Int(random.next() % 4)]
            builder.extendRenewal(days: days, at: moment)
        case .gracePeriodExpired:
            builder.failBilling(grace: true)
            builder.expireGracePeriod()
        case .refundDeclined:
            builder.requestRefundAndDecline()
        case .silentLapse:
            builder.setAutoRenew(false, at: moment)
            builder.endRun(Self.silentEndingLead, before: builder.current.latest.expiresDate)
        case .silentGraceEnd:
            builder.failBilling(grace: true)
            builder.endRun(Self.silentEndingLead, before: builder.current.renewal.gracePeriodExpiresDate ?? builder.now)
        default:
            break
        }
    }
}
