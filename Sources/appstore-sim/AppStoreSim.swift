import ArgumentParser
import BuildInfo

/// `appstore-sim`: a local stand-in for Apple's App Store servers.
@main
struct AppStoreSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstore-sim",
        abstract: "A local stand-in for Apple: verifyReceipt, v1 and v2 notifications and the truth they imply.",
        discussion: """
            Simulated customers live through scripted subscription lifecycles on an accelerated, \
            seeded clock that ends at the real now, or buy lifetime unlocks, passes, coins and trial \
            products (in real days), or are grandfathered by a formerly paid app's original version. \
            The simulator serves verifyReceipt for them (POST /verifyReceipt and POST \
            /sandbox/verifyReceipt), sends the matching v1 or signed v2 \
            notifications (--notifications-version) to a subscriptiond URL, and prints what \
            subscriptiond should then say, entitlements included. `appstore-sim ca` prints the root that signs v2.

            Control endpoints while serving: GET /control/stats, POST /control/stats/reset, \
            GET|POST|DELETE /control/faults, GET /control/truth[?at_ms=N], \
            GET /control/money[?day=D&from=D&to=D] (the simulator's own report numbers), GET /control/rates[?through=D] (its exchange rates, CSV).

            App Store Server API (keys from `appstore-sim api-key`): production under /api, sandbox under \
            /api-sandbox: subscription statuses, transaction history and info, app transaction info \
            (GET /api/inApps/v1/transactions/appTransactions/{transactionId}), notification history and \
            test notifications (e.g. GET /api/inApps/v1/subscriptions/{transactionId}); faults apply to it too.

            Per-request faults: header X-Sim-Fault: 21005|21100|429|500|503|hang|reset, and X-Sim-Latency-Ms: N.
            """,
        version: BuildInfo.versionLine("appstore-sim"),
        subcommands: [
            ServeCommand.self, RunCommand.self, TruthCommand.self, CACommand.self, TestNotificationCommand.self, APIKeyCommand.self,
            NotificationsCommand.self, ScenariosCommand.self, CatalogCommand.self, MoneyCommand.self, RatesCommand.self,
            RealtimeRequestsCommand.self,
        ]
    )
}
