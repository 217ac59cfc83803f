/// One way to play a scenario: the app, the subscription bought first (with the products it may
/// move to) and the one-time product bought.
struct ScenarioCandidate: Sendable {
    var app: SimApp
    var product: SimProduct?
    var targets: [SimProduct] = []
    var purchase: SimPurchaseProduct?

    /// What names the candidate in a spec's `productID`: the subscription, else the one-time product.
    var productID: String? {
        product?.productID ?? purchase?.productID
    }
}

/// The products one scenario run uses.
struct ScenarioPlan: Sendable {
    /// The subscription bought first, for scenarios with a subscription.
    var product: SimProduct?
    /// The product switched to or bought again.
    var target: SimProduct?
    /// The one-time product bought, for scenarios with one.
    var purchase: SimPurchaseProduct?
    /// A refund is prorated (`refund`).
    var proratedRefund = false
    /// Days between the lapse and the purchase again (`resubscribe`, `promotional-offer`);
    /// `nil`: one period of the product.
    var lapseDays: Int?
}

extension ScenarioKind {
    /// Every way to play the scenario in `app`: subscription scenarios start from each of its
    /// auto-renewable products (with the products they may move to), purchase scenarios from
    /// each fitting one-time product, grandfather scenarios need the app's rule.
    func candidates(for app: SimApp, catalog: ProductCatalog) -> [ScenarioCandidate] {
        if needsGrandfather {
            return app.grandfather == nil ? [] : [ScenarioCandidate(app: app)]
        }
        let oneTime = catalog.purchaseProducts(of: app.bundleID).filter(buys)
        guard buysSubscription else {
            return oneTime.map { ScenarioCandidate(app: app, purchase: $0) }
        }
        return catalog.products(of: app.bundleID).compactMap { product in
            let targets: [SimProduct]
            switch self {
            case .upgrade: targets = catalog.upgrades(from: product)
            case .downgrade: targets = catalog.downgrades(from: product)
            case .crossgrade: targets = catalog.crossgrades(from: product)
            default: targets = []
            }
            if needsTarget && targets.isEmpty { return nil }
            guard buysOneTimeProduct else { return ScenarioCandidate(app: app, product: product, targets: targets) }
            // The one-time product must grant an entitlement the subscription grants too.
            let sharing = catalog.entitlements.filter { $0.productIDs.contains(product.productID) }
            guard let unlock = oneTime.first(where: { unlock in sharing.contains { $0.productIDs.contains(unlock.productID) } }) else {
                return nil
            }
            return ScenarioCandidate(app: app, product: product, targets: targets, purchase: unlock)
        }
    }

    /// The products for `spec` in `app`: the named ones, or the first fitting ones (free trials first).
    func plan(for spec: CustomerSpec, app: SimApp, catalog: ProductCatalog) throws -> ScenarioPlan {
        let options = candidates(for: app, catalog: catalog)
        let chosen: ScenarioCandidate?
        if let productID = spec.productID {
            chosen = options.first { $0.product?.productID == productID || $0.purchase?.productID == productID }
        } else {
            chosen = options.first { $0.product?.introOffer?.paymentMode == .freeTrial } ?? options.first
        }
        guard let chosen else {
            throw SimulatorError("\(spec.name): nothing \(app.bundleID) sells fits scenario \(rawValue)")
        }
        var target = chosen.targets.first
        if let targetID = spec.targetProductID, let product = chosen.product {
            target =
                self == .resubscribe
                ? catalog.products(of: app.bundleID).first { $0.productID == targetID }
                : chosen.targets.first { $0.productID == targetID }
            guard target != nil else {
                throw SimulatorError("\(spec.name): \(targetID) cannot be the target of \(rawValue) from \(product.productID)")
            }
        }
        return ScenarioPlan(
            product: chosen.product, target: target, purchase: chosen.purchase, proratedRefund: spec.proratedRefund,
            lapseDays: spec.lapseDays)
    }

    /// The original application version of a customer `name` of `app` whose spec names none:
    /// `1.0` in apps without a grandfather rule; else 1.9 for `grandfathered`, 2.0 or 10.1 for
    /// `not-grandfathered`, and any of the three for other scenarios (drawn from `seed`).
    func originalApplicationVersion(app: SimApp, name: String, seed: UInt64) -> String {
        guard app.grandfather != nil else { return "1.0" }
        var random = SeededRandom(seed: seed, name: "original-version-" + name)
        let draw = Int(random.next() % 6)
        switch self {
        case .grandfathered: return "1.9"
        case .notGrandfathered: return ["2.0", "10.1"][draw % 2]
        default: return ["1.9", "2.0", "10.1"][draw % 3]
        }
    }
}
