import Foundation

/// Builds customers: plays their scenario so that its last event falls just before `end`.
enum ScenarioRunner {
    /// The customer `spec` of `app`, as the simulator's `number`-th customer.
    static func build(
        _ spec: CustomerSpec,
        app: SimApp,
        configuration: SimulatorConfiguration,
        number: Int,
        end: Date,
        signer: JWSSigner?
    ) throws -> SimCustomer {
        let catalog = configuration.catalog
        let plan = try spec.scenario.plan(for: spec, app: app, catalog: catalog)
        let clock = PeriodClock(environment: spec.environment, timing: configuration.timing)
        var renewals = max(0, spec.renewals)
        if spec.environment == .sandbox {
            // Sandbox stops renewing after its limit: only plain renewals may run into it, the
            // other scenarios keep room for the renewal events they still need.
            let room = spec.scenario == .trialRenews ? 0 : 1 + spec.scenario.extraRenewals
            renewals = min(renewals, max(0, configuration.timing.sandboxMaxRenewals - room))
        }
        var jitterRandom = SeededRandom(seed: configuration.seed, name: "end-" + spec.name)
        var jitter = Int.random(in: 5...90, using: &jitterRandom)
        if spec.scenario.endsSilentlyAfterRun {
            // Its unannounced change must come `silentEndingLead` after the run, not earlier.
            jitter = 0
        } else if spec.environment == .sandbox && spec.scenario == .gracePeriod {
            // A weekly product's sandbox grace period lasts a minute: the end must fall inside it.
            jitter = min(jitter, 30)
        }
        let target = Date(timeIntervalSince1970: end.timeIntervalSince1970.rounded(.down) - Double(jitter))

        // Calendar months differ in length, so shift the start until the scenario's end fits
        // (its last event, or the time it lets pass after it).
        var start = target
        var events: [LifecycleEvent] = []
        var finished = target
        for _ in 0..<8 {
            var builder = LifecycleBuilder(
                catalog: catalog, clock: clock,
                ids: IDAllocator(seed: configuration.seed, customerNumber: number), start: start, storefront: spec.storefront
            )
            var random = SeededRandom(seed: configuration.seed, name: spec.name)
            spec.scenario.play(plan, renewals: renewals, on: &builder, random: &random)
            events = builder.events
            finished = builder.now
            let overshoot = finished.timeIntervalSince(target)
            // A silent scenario's unannounced change must fall exactly `silentEndingLead` after
            // the run, so its start moves either way; the others only need to end by `target`.
            if overshoot <= 0 && !(spec.scenario.endsSilentlyAfterRun && overshoot < 0) { break }
            start = start.addingTimeInterval(-overshoot)
        }
        let context = NotificationContext(
            spec: spec, app: app, catalog: catalog, seed: configuration.seed,
            appTransactionID: IDAllocator(seed: configuration.seed, customerNumber: number).appTransactionID, signer: signer
        )
        return try assemble(spec, number: number, events: events, finished: finished, context: context)
    }

    /// Renders the notifications of `events` and wraps everything up.
    private static func assemble(
        _ spec: CustomerSpec, number: Int, events: [LifecycleEvent], finished: Date, context: NotificationContext
    ) throws -> SimCustomer {
        var notifications: [SimNotification] = []
        for (index, event) in events.enumerated() {
            let version = spec.notificationVersion.version(ofEvent: index, count: events.count)
            let receipt = ReceiptToken(customer: spec.name, environment: spec.environment, nonce: index + 1).encoded
            if let notification = try context.render(
                event, version: version, sequence: notifications.count, receipt: receipt
            ) {
                notifications.append(notification)
            }
        }
        let app = context.app
        let installDate = (events.first?.date ?? finished).addingTimeInterval(-86_400)
        let version =
            spec.originalApplicationVersion
            ?? spec.scenario.originalApplicationVersion(app: app, name: spec.name, seed: context.seed)
        var appTransaction: String?
        if let signer = context.signer, app.grandfather != nil, spec.notificationVersion != .v1 {
            let facts = AppTransactionRenderer.facts(
                spec, app: app, number: number, originalApplicationVersion: version,
                installDate: installDate, signedDate: events.last?.date ?? installDate, seed: context.seed
            )
            appTransaction = try signer.sign(AppTransactionRenderer.payload(facts))
        }
        return SimCustomer(
            id: spec.name,
            spec: spec,
            bundleID: app.bundleID,
            number: number,
            receipt: ReceiptToken(customer: spec.name, environment: spec.environment, nonce: 0).encoded,
            installDate: installDate,
            notifications: notifications,
            originalApplicationVersion: version,
            signedAppTransaction: appTransaction,
            events: events
        )
    }
}
