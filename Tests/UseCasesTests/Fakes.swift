import AppStore
import Foundation
import Store
import Subscriptions
import Synchronization
import UseCases

/// In-memory stand-ins for the use cases' ports: the decisions of the use cases are tested
/// without a database (the Store's real types are tested against PostgreSQL elsewhere).

/// Grants in memory, with the catalog's entitlements.
final class InMemoryGrants: GrantRepository {
    private let entitlements: Set<String>
    private let grants = Mutex<[ManualGrant]>([])

    init(entitlements: Set<String>) {
        self.entitlements = entitlements
    }

    func add(appUserID: String, entitlement: String, expiresAt: Date?, reason: String, actor: String) async throws -> ManualGrant {
        guard entitlements.contains(entitlement) else { throw GrantStore.Failure.unknownEntitlement(entitlement) }
        return grants.withLock { grants in
            let grant = ManualGrant(
                id: Int64(grants.count + 1), appUserID: appUserID, entitlement: entitlement, expiresAt: expiresAt, reason: reason,
                createdAt: Date(), revokedAt: nil)
            grants.append(grant)
            return grant
        }
    }

    func revoke(id: Int64, appUserID: String?, reason: String?, actor: String) async throws -> ManualGrant {
        try grants.withLock { grants in
            guard let index = grants.firstIndex(where: { $0.id == id }) else { throw GrantStore.Failure.unknownGrant(id) }
            let grant = grants[index]
            let revoked = ManualGrant(
                id: grant.id, appUserID: grant.appUserID, entitlement: grant.entitlement, expiresAt: grant.expiresAt, reason: grant.reason,
                createdAt: grant.createdAt, revokedAt: Date())
            grants[index] = revoked
            return revoked
        }
    }

    func list(appUserID: String?, limit: Int) async throws -> [ManualGrant] {
        grants.withLock { Array($0.reversed().prefix(limit)) }
    }
}

/// App account tokens in memory.
final class InMemoryTokens: AppAccountTokenRepository {
    private let tokens = Mutex<[String: String]>([:])

    func namespace() async throws -> [UInt8] { Array(repeating: 7, count: 16) }

    func token(bundleID: String, appUserID: String, recordingIfNone candidate: String) async throws -> String {
        tokens.withLock { tokens in
            let key = bundleID + "\u{0}" + appUserID
            if let stored = tokens[key] { return stored }
            tokens[key] = candidate
            return candidate
        }
    }
}

/// One fixed catalog.
struct FixedCatalog: CatalogSource {
    let products: [Product]

    func catalog() async throws -> ProductCatalog { ProductCatalog(products: products) }
}

/// Apple accounts by (user, transaction): what the server verified for whom.
struct KnownAccounts: AppleAccountSource {
    let accounts: [String: AppleAccountRead]

    func account(appUserID: String, transactionID: String, bundleID: String, now: Date) async throws -> AppleAccountRead? {
        accounts[appUserID + "/" + transactionID]
    }

    func account(
        environment: AppStoreEnvironment, originalTransactionID: String, now: Date
    ) async throws -> (bundleID: String, read: AppleAccountRead)? {
        nil
    }
}

/// The audit rows written, in memory.
final class RecordedAudit: AuditTrail {
    struct Row: Equatable {
        let action: String
        let actor: String
        let appUserID: String?
        let detail: [String: String]
    }

    let rows = Mutex<[Row]>([])

    func record(action: String, actor: String, appUserID: String?, detail: [String: String]) async throws {
        rows.withLock { $0.append(Row(action: action, actor: actor, appUserID: appUserID, detail: detail)) }
    }
}
