import AppStoreSimulator
import Foundation
import Testing

@Suite("Seeded customers and delivery")
struct ReproducibilityTests {
    private func bodies(seed: UInt64) throws -> [[UInt8]] {
        let simulator = makeSimulator(seed: seed)
        try simulator.addRandomCustomers(30, endingAt: fixedEnd)
        return simulator.notifications().map(\.body)
    }

    @Test func sameSeedSameBodies() throws {
        let first = try bodies(seed: 42)
        #expect(try bodies(seed: 42) == first)
        #expect(try bodies(seed: 43) != first)
        #expect(first.count > 30)
    }

    @Test func randomCustomersCoverTheScenariosAndEndBeforeNow() throws {
        let simulator = makeSimulator(seed: 5)
        let customers = try simulator.addRandomCustomers(200, sandboxShare: 0.25, endingAt: fixedEnd)
        #expect(customers.count == 200)
        #expect(Set(customers.map(\.scenario)) == Set(ScenarioKind.allCases))
        #expect(customers.contains { $0.environment == .sandbox })
        #expect(customers.allSatisfy { $0.lastEventDate <= fixedEnd && $0.notifications.allSatisfy { $0.date <= fixedEnd } })
        let truth = simulator.truth(at: fixedEnd)
        for customer in customers {
            let status = truth.customer(customer.id)?.subscriptions.first?.status
            #expect(status == customer.scenario.finalStatus, "\(customer.id)")
        }
        let ids = customers.flatMap { $0.state(at: fixedEnd).transactions.map(\.transactionID) }
        #expect(Set(ids).count == ids.count)
    }

    @Test func deliveryPlanDuplicatesAndShufflesReproducibly() throws {
        let simulator = makeSimulator()
        try simulator.addRandomCustomers(10, endingAt: fixedEnd)
        let notifications = simulator.notifications()
        let plan = DeliveryPlan.order(notifications, duplicates: 3, shuffle: true, seed: 9)
        #expect(plan.count == notifications.count * 3)
        #expect(plan == DeliveryPlan.order(notifications, duplicates: 3, shuffle: true, seed: 9))
        #expect(plan != DeliveryPlan.order(notifications, duplicates: 3))
        for notification in notifications {
            #expect(plan.filter { $0 == notification }.count == 3)
        }
        #expect(zip(notifications, notifications.dropFirst()).allSatisfy { $0.date <= $1.date })
    }

    @Test func duplicateNamesAreRefused() throws {
        let simulator = makeSimulator()
        try simulator.addCustomers([CustomerSpec(name: "same", scenario: .trialRenews)])
        #expect(throws: SimulatorError.self) {
            try simulator.addCustomers([CustomerSpec(name: "same", scenario: .refund)])
        }
        #expect(throws: SimulatorError.self) {
            try simulator.addCustomers([CustomerSpec(name: "up", scenario: .upgrade, productID: "com.example.premium.monthly")])
        }
        #expect(simulator.customers.count == 1)
    }
}
