import AppStore
import AppStoreServerAPI
import AppStoreSignature
import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl test-notification [--app BUNDLE_ID] [--environment E]`.
struct TestNotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-notification",
        abstract: "Ask Apple for a TEST notification and wait until it is in the inbox.",
        discussion: """
            The first thing to run after setting up version 2: it asks the App Store Server API \
            (Request a Test Notification) to send one to the URL set in App Store Connect, then \
            watches the inbox for it. When it has not arrived within --wait seconds, it prints \
            what Apple reports about its delivery attempts and exits 1. Needs the app's API key \
            (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE) and reads the same \
            settings as subscriptiond.

            Example:
              subscriptionctl test-notification --environment Sandbox
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("The app (default: the only one with an API key).", valueName: "bundle-id"))
    var app: String?

    @Option(help: "Sandbox or Production.")
    var environment = "Sandbox"

    @Option(help: "Seconds to wait for it to arrive (1 to 600).")
    var wait = 60

    func validate() throws {
        guard (1...600).contains(wait) else { throw ValidationError("--wait must be from 1 to 600 seconds") }
    }

    func run() async throws {
        let environment = try EnvironmentOption.parse(self.environment)
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let client = try session.client(app: app)
                let token = try await client.requestTestNotification(environment: environment)
                if !options.json { Output.line("asked Apple (\(environment.rawValue)) to send a TEST notification to \(client.bundleID)") }
                let deadline = ContinuousClock.now + .seconds(wait)
                var last: TestNotificationStatus?
                while ContinuousClock.now < deadline {
                    // Apple may not know the token's notification for a moment: keep asking.
                    if let status = try? await client.testNotificationStatus(token: token, environment: environment) {
                        last = status
                        if let uuid = status.notification.payload.notificationUUID,
                            let stored = try await context.inbox.signedNotification(notificationUUID: uuid)
                        {
                            let (id, state) = (stored.id, stored.state)
                            if options.json {
                                try Output.json(
                                    TestNotificationDocument(
                                        arrived: true, notificationUUID: uuid, notificationID: id, state: state, attempts: []))
                            } else {
                                Output.line("TEST notification \(uuid) arrived: notification \(id), \(state)")
                            }
                            return
                        }
                    }
                    try await Task.sleep(for: .seconds(1))
                }
                let attempts = (last?.sendAttempts ?? []).map(Self.describe)
                if options.json {
                    try Output.json(
                        TestNotificationDocument(
                            arrived: false, notificationUUID: last?.notification.payload.notificationUUID, notificationID: nil, state: nil,
                            attempts: attempts))
                }
                let said =
                    attempts.isEmpty
                    ? "Apple reports no delivery attempt yet" : "Apple's delivery attempts: " + attempts.joined(separator: "; ")
                throw CommandFailure.notFound(
                    "the TEST notification is not in the inbox after \(wait) s; \(said). Check the notification URL in App Store Connect and that subscriptiond is reachable there"
                )
            }
        }
    }

    private static func describe(_ attempt: NotificationSendAttempt) -> String {
        let when = attempt.attemptDate.map { TimeText.withAge($0) } ?? "unknown time"
        return "\(when): \(attempt.resultRaw ?? "no result")"
    }
}

/// `test-notification --json`.
struct TestNotificationDocument: Encodable {
    let arrived: Bool
    let notificationUUID: String?
    let notificationID: Int64?
    let state: String?
    let attempts: [String]

    enum CodingKeys: String, CodingKey {
        case arrived, notificationUUID = "notification_uuid", notificationID = "notification_id", state, attempts
    }
}
