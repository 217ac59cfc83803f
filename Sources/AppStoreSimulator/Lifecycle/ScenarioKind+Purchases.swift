extension ScenarioKind {
    /// Plays the scenarios of one-time products and grandfathering. Their lengths are real
    /// days in both environments, and each ends with time passing after its last event, so the
    /// purchases lie as many days before the end as the scenario says.
    func playPurchases(
        _ plan: ScenarioPlan, renewals: Int, on builder: inout LifecycleBuilder, moment: Double, random: inout SeededRandom
    ) {
        let days = 1 + Int(random.next() % 60)
        let reason = random.next() % 2 == 0 ? "0" : "1"
        switch (self, plan.purchase) {
        case (.lifetime, let unlock?), (.consumable, let unlock?):
            builder.buy(unlock)
            builder.wait(days: days)
        case (.lifetimeRefund, let unlock?):
            let bought = builder.buy(unlock)
            builder.wait(days: 1 + days % 10)
            builder.refundPurchase(bought, reason: reason)
            builder.wait(days: days)
        case (.passesStack, let pass?):
            builder.buy(pass)
            builder.wait(days: 10)
            builder.buy(pass)
            builder.wait(days: 15)
        case (.passRefunded, let pass?):
            builder.buy(pass)
            builder.wait(days: 10)
            let second = builder.buy(pass)
            builder.wait(days: 2)
            builder.refundPurchase(second, reason: reason, prorated: true)
            builder.wait(days: 13)
        case (.passExpired, let pass?):
            builder.buy(pass)
            builder.wait(days: 40)
        case (.trialProduct, let trial?):
            builder.buy(trial)
            builder.wait(days: 13)
        case (.trialProductEnded, let trial?):
            builder.buy(trial)
            builder.wait(days: 15)
        case (.lifetimeAndSubscription, let unlock?):
            guard let product = plan.product else { return }
            builder.purchase(product)
            builder.renew(times: renewals)
            // Early in the period, so that even a 3-minute sandbox week still runs at the end.
            builder.advance(to: builder.momentInCurrentPeriod(moment / 4))
            builder.buy(unlock)
        default:
            // Grandfathering needs no purchase: the customer only has the app.
            break
        }
    }
}
