import Foundation
import Subscriptions
import Testing
import UseCases

/// ``ManualGrants``' decisions over an in-memory store.
@Suite("Use cases without a database: manual grants")
struct ManualGrantsTests {
    let grants = ManualGrants(store: InMemoryGrants(entitlements: ["pro"]))

    @Test("a grant needs a reason of 1 to 1,000 characters and an end in the future; the reason is trimmed")
    func rules() async throws {
        await #expect(throws: UseCaseError.malformed("reason must say why, in 1 to 1000 characters")) {
            _ = try await grants.add(appUserID: "u", entitlement: "pro", expiresAt: nil, reason: "   ", actor: "test")
        }
        await #expect(throws: UseCaseError.malformed("expires_at must lie in the future (or be null: for good)")) {
            _ = try await grants.add(appUserID: "u", entitlement: "pro", expiresAt: Date(timeIntervalSinceNow: -1), reason: "r", actor: "t")
        }
        await #expect(throws: UseCaseError.malformed("app_user_id is empty")) {
            _ = try await grants.add(appUserID: "", entitlement: "pro", expiresAt: nil, reason: "r", actor: "t")
        }
        let grant = try await grants.add(appUserID: "u", entitlement: "pro", expiresAt: nil, reason: "  comp  ", actor: "t")
        #expect(grant.reason == "comp" && grant.expiresAt == nil)
    }

    @Test("the store's refusals become the use case's: an unknown entitlement, an unknown grant")
    func refusals() async throws {
        await #expect(
            throws: UseCaseError.unknownEntitlement("the catalog has no entitlement \"gold\" (subscriptionctl products list shows them)")
        ) {
            _ = try await grants.add(appUserID: "u", entitlement: "gold", expiresAt: nil, reason: "r", actor: "t")
        }
        await #expect(throws: UseCaseError.notFound("no grant 9 for app_user_id u")) {
            _ = try await grants.revoke(id: 9, appUserID: "u", reason: nil, actor: "t")
        }
        let grant = try await grants.add(appUserID: "u", entitlement: "pro", expiresAt: nil, reason: "r", actor: "t")
        #expect(try await grants.revoke(id: grant.id, appUserID: "u", reason: nil, actor: "t").revokedAt != nil)
    }
}
