import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim test-notification`: send (or print) one v2 `TEST` notification.
struct TestNotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-notification",
        abstract: "Send a signed v2 TEST notification to --target (or print its body), as Apple does on request."
    )

    @OptionGroup var state: StateOptions

    @Option(help: "subscriptiond's notification URL; without it the body is printed.")
    var target: String?

    @Option(help: "The app's bundle id.")
    var bundleId = SimulatorConfiguration.demoBundleID

    @Option(help: "Sandbox or Production.")
    var environment: SimEnvironment = .sandbox

    func run() async throws {
        var configuration = SimulatorConfiguration.demo()
        if configuration.app(bundleId) == nil {
            configuration.apps.append(SimApp(bundleID: bundleId, sharedSecret: ""))
        }
        let simulator = AppStoreSimulator(configuration: configuration, pki: try state.pki())
        let notification = try simulator.testNotification(bundleID: bundleId, environment: environment)
        guard let target else {
            print(notification.text)
            return
        }
        guard let url = URL(string: target), url.scheme == "http" else {
            throw ValidationError("--target must be an http:// URL")
        }
        let report = await NotificationSender(target: url, retry: .none).deliver(notification)
        Console.log("TEST \(notification.notificationUUID ?? ""): HTTP \(report.statuses.keys.sorted())")
        if report.delivered == 0 { throw ExitCode(1) }
    }
}
