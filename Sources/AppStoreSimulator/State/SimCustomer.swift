import Foundation

/// A simulated customer: who they are, their whole history, and the notifications it sent.
public struct SimCustomer: Sendable {
    /// The customer id: the spec's name, also the `app_user_id` to link in subscriptiond.
    public let id: String
    /// What the customer was built from.
    public let spec: CustomerSpec
    /// The app the customer bought in.
    public let bundleID: String
    /// The customer's place among the simulator's customers (it seeds their ids).
    public let number: Int
    /// The receipt the app would send to its backend (base64; verifyReceipt accepts it).
    public let receipt: String
    /// When the app was installed: a day before the first purchase.
    public let installDate: Date
    /// The v1 notifications, in the order Apple sends them.
    public let notifications: [SimNotification]
    /// The version of the app the customer first downloaded (`original_application_version`,
    /// `originalApplicationVersion`).
    public let originalApplicationVersion: String
    /// StoreKit 2's `AppTransaction` as the device would hand it to the app's backend (a JWS
    /// signed like transactions), for v2 customers of an app with a grandfather rule; else `nil`.
    public let signedAppTransaction: String?
    /// The state after each event, oldest first.
    let events: [LifecycleEvent]

    /// Production or sandbox.
    public var environment: SimEnvironment {
        spec.environment
    }

    /// The lifecycle the customer lives through.
    public var scenario: ScenarioKind {
        spec.scenario
    }

    /// When the last event happened (never after the end the scenario was built for).
    public var lastEventDate: Date {
        events.last?.date ?? installDate
    }

    /// Everything the customer owns at `date` (empty before the first purchase).
    public func state(at date: Date) -> CustomerState {
        events.last { $0.date <= date }?.state ?? CustomerState()
    }
}
