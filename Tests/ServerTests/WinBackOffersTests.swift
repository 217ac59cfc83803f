import AppStoreSimulator
import Foundation
import HTTPClient
import TestSupport
import Testing

/// The renewal info's `eligibleWinBackOfferIds` on the subscription JSON, from appstore-sim's
/// signed version 2 notifications: a customer who cancelled and lapsed has Apple's win-back
/// offer, an active one none.
@Suite("Win-back offers on the subscription JSON")
struct WinBackOffersTests {
    @Test("a lapsed customer shows Apple's eligible win-back offers; an active one shows none")
    func winBackOffers() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 6, seed: 20_261_205, sandboxShare: 0, scenarios: [.cancelExpire, .trialRenews])
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            for notification in world.simulator.notifications() {
                #expect(try await service.postNotification(notification.body).status == 200)
            }
            try await service.waitUntilSettled()
            let customers = world.simulator.truth().customers
            #expect(Set(customers.map(\.scenario)) == [.cancelExpire, .trialRenews])
            for customer in customers {
                let subscription = try #require(customer.subscriptions.first)
                let stored = try jsonObject(try await service.get("/v1/subscriptions/\(subscription.originalTransactionID)"))
                let offers = try #require(stored["eligible_win_back_offer_ids"] as? [String], "\(stored)")
                switch customer.scenario {
                case .cancelExpire:
                    #expect(stored["status"] as? String == "expired")
                    #expect(offers == [subscription.productID + ".winback"], "\(customer.appUserID)")
                default:
                    #expect(stored["status"] as? String == "active")
                    #expect(offers.isEmpty, "\(customer.appUserID)")
                }
            }
        }
    }
}
