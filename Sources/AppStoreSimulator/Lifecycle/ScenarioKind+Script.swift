/// The products one scenario run uses.
struct ScenarioPlan: Sendable {
    var product: SimProduct
    var target: SimProduct?
}

extension ScenarioKind {
    /// Every product of `products` the scenario can start from, with the products it may move to.
    func candidates(in products: [SimProduct], catalog: ProductCatalog) -> [(start: SimProduct, targets: [SimProduct])] {
        products.compactMap { product in
            let targets: [SimProduct]
            switch self {
            case .upgrade: targets = catalog.upgrades(from: product)
            case .downgrade: targets = catalog.downgrades(from: product)
            case .crossgrade: targets = catalog.crossgrades(from: product)
            default: targets = []
            }
            return needsTarget && targets.isEmpty ? nil : (product, targets)
        }
    }

    /// The products for `spec`: the named ones, or the first fitting ones (free trials first).
    func plan(for spec: CustomerSpec, products: [SimProduct], catalog: ProductCatalog) throws -> ScenarioPlan {
        let options = candidates(in: products, catalog: catalog)
        let chosen: (start: SimProduct, targets: [SimProduct])?
        if let productID = spec.productID {
            chosen = options.first { $0.start.productID == productID }
        } else {
            chosen = options.first { $0.start.introOffer?.paymentMode == .freeTrial } ?? options.first
        }
        guard let chosen else {
            throw SimulatorError("\(spec.name): no product of the app fits scenario \(rawValue)")
        }
        var target = chosen.targets.first
        if let targetID = spec.targetProductID {
            target = self == .resubscribe ? products.first { $0.productID == targetID }
                : chosen.targets.first { $0.productID == targetID }
            guard target != nil else {
                throw SimulatorError("\(spec.name): \(targetID) cannot be the target of \(rawValue) from \(chosen.start.productID)")
            }
        }
        return ScenarioPlan(product: chosen.start, target: target)
    }

    /// Plays the scenario on `builder`; `random` decides when inside a period things happen.
    func play(_ plan: ScenarioPlan, renewals: Int, on builder: inout LifecycleBuilder, random: inout SeededRandom) {
        let moment = random.fraction(0.2...0.8)
        switch self {
        case .offerCode: builder.purchase(plan.product, redeeming: .halfPriceCode(for: plan.product))
        case .familyRevoke: builder.purchase(plan.product, familyShared: true)
        default: builder.purchase(plan.product)
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
            builder.refund(at: moment, reason: random.next() % 2 == 0 ? "0" : "1")
        case .upgrade:
            builder.switchNow(to: plan.target!, at: moment)
        case .downgrade:
            builder.changeRenewalPreference(to: plan.target!, at: moment)
            builder.renew()
        case .crossgrade where plan.target!.period == plan.product.period:
            builder.switchNow(to: plan.target!, at: moment)
        case .crossgrade:
            builder.changeRenewalPreference(to: plan.target!, at: moment)
            builder.renew()
        case .resubscribe:
            builder.setAutoRenew(false, at: moment)
            builder.lapse()
            builder.wait(periods: 1)
            builder.purchase(plan.target ?? plan.product)
        case .offerCode:
            break
        case .promotionalOffer:
            builder.setAutoRenew(false, at: moment)
            builder.lapse()
            builder.wait(periods: 1)
            builder.purchase(plan.product, redeeming: .comeback(for: plan.product))
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
        }
    }
}
