import Foundation
import NIOConcurrencyHelpers

/// A local stand-in for Apple: simulated customers, their receipts and notifications,
/// a verifyReceipt oracle with fault injection, and the truth subscriptiond should reach.
///
/// Thread-safe; share one instance between the server, the notification sender and tests.
public final class AppStoreSimulator: Sendable {
    /// Apps, catalog, seed and timing.
    public let configuration: SimulatorConfiguration
    let box: NIOLockedValueBox<SimulatorState>
    /// App account tokens set through Set App Account Token, by customer id: every payload of
    /// the customer carries it from then on. Under a lock of its own: payloads are rendered
    /// while `box` is held.
    let setAppAccountTokens = NIOLockedValueBox<[String: String]>([:])

    /// A simulator with no customers and no faults.
    ///
    /// `pki` signs v2 notifications (pass `SimPKI.loadOrCreate(in:)` for a root that survives
    /// runs); without one, a throwaway PKI is made the first time a v2 notification is needed.
    public init(configuration: SimulatorConfiguration, pki: SimPKI? = nil) {
        self.configuration = configuration
        self.box = NIOLockedValueBox(
            SimulatorState(
                faults: FaultState(settings: .none, defaultSeed: configuration.seed),
                currentSigner: pki.map(JWSSigner.init(pki:))
            ))
    }

    /// The PKI that signs v2 notifications (made now if there is none yet).
    public func signingPKI() throws -> SimPKI {
        try box.withLockedValue { try $0.signer().pki }
    }

    /// Every customer, in the order they were added.
    public var customers: [SimCustomer] {
        box.withLockedValue { $0.customers }
    }

    /// The customer with `id`.
    public func customer(_ id: String) -> SimCustomer? {
        box.withLockedValue { state in state.index[id].map { state.customers[$0] } }
    }

    /// Builds and adds customers whose scenarios end (every event) at or before `end`.
    ///
    /// Throws when a name is taken, an app is unknown or no product fits a scenario; then
    /// nothing is added.
    @discardableResult
    public func addCustomers(_ specs: [CustomerSpec], endingAt end: Date = Date()) throws -> [SimCustomer] {
        try box.withLockedValue { state in
            var added: [SimCustomer] = []
            var names = Set(state.index.keys)
            for spec in specs {
                guard names.insert(spec.name).inserted else {
                    throw SimulatorError("customer \(spec.name) already exists")
                }
                let bundleID = spec.bundleID ?? configuration.apps.first?.bundleID ?? ""
                guard let app = configuration.app(bundleID) else {
                    throw SimulatorError("\(spec.name): unknown app \(bundleID)")
                }
                let signer = spec.notificationVersion == .v1 ? nil : try state.signer()
                added.append(
                    try ScenarioRunner.build(
                        spec, app: app, configuration: configuration,
                        number: state.customers.count + added.count + 1, end: end, signer: signer
                    ))
            }
            for customer in added {
                state.index[customer.id] = state.customers.count
                state.customers.append(customer)
            }
            return added
        }
    }

    /// Every notification of every customer, in the order Apple would send them
    /// (by event time, then customer, then sequence).
    public func notifications() -> [SimNotification] {
        let all = customers
        let order = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) })
        return all.flatMap(\.notifications).sorted {
            ($0.date, order[$0.customerID]!, $0.sequence) < ($1.date, order[$1.customerID]!, $1.sequence)
        }
    }
}

/// The simulator's mutable part, behind one lock.
struct SimulatorState: Sendable {
    var customers: [SimCustomer] = []
    var index: [String: Int] = [:]
    var faults: FaultState
    var stats = SimulatorStats()
    var receiptNonce = 1_000_000
    var currentSigner: JWSSigner?
    var testNotifications = 0
    var api = APIState()
    var retention = RetentionState()

    /// The signer, made with a throwaway PKI when the simulator was given none.
    mutating func signer() throws -> JWSSigner {
        if let currentSigner { return currentSigner }
        let made = JWSSigner(pki: try SimPKI.generate())
        currentSigner = made
        return made
    }
}
