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

    /// A simulator with no customers and no faults.
    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
        self.box = NIOLockedValueBox(SimulatorState(
            faults: FaultState(settings: .none, defaultSeed: configuration.seed)
        ))
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
                added.append(try ScenarioRunner.build(
                    spec, app: app, configuration: configuration,
                    number: state.customers.count + added.count + 1, end: end
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
}
