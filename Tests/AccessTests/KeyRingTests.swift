import Foundation
import Testing

@testable import Access

@Suite("Scopes, principals and the key ring")
struct KeyRingTests {
    static func key(
        _ name: String, _ scopes: Set<Scope>, apps: AppScope = .all, expiresAt: Date? = nil, revoked: Bool = false
    )
        -> (record: APIKeyRecord, text: String)
    {
        let text = APIKeySecret.generate()
        return (
            APIKeyRecord(
                name: name, digest: APIKeySecret.digest(of: text), scopes: scopes, apps: apps, createdAt: Date(), expiresAt: expiresAt,
                revokedAt: revoked ? Date() : nil, lastUsedAt: nil),
            text
        )
    }

    @Test("each scope permits itself; write and offers include read; admin includes everything; reports only itself")
    func scopeTable() {
        let expected: [Scope: Set<Scope>] = [
            .read: [.read], .write: [.read, .write], .offers: [.read, .offers], .reports: [.reports],
            .admin: Set(Scope.allCases),
        ]
        for held in Scope.allCases {
            for needed in Scope.allCases {
                #expect(held.permits(needed) == expected[held]!.contains(needed), "\(held) → \(needed)")
            }
        }
    }

    @Test("a scope list parses, and the first unknown word is named")
    func scopeList() throws {
        #expect(try Scope.parseList("read,offers").get() == [.read, .offers])
        #expect(throws: Scope.UnknownScope(word: "superuser")) { try Scope.parseList("read,superuser").get() }
        #expect(throws: Scope.UnknownScope(word: "")) { try Scope.parseList("").get() }
    }

    @Test("a key is sk_ and 43 base64url characters; two keys differ")
    func keyText() {
        let first = APIKeySecret.generate()
        #expect(first.hasPrefix("sk_"))
        #expect(first.count == 3 + 43)
        #expect(first.dropFirst(3).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(first != APIKeySecret.generate())
    }

    @Test("the ring finds a live key, refuses a revoked, expired or near-miss one, and takes ADMIN_TOKEN as admin-token")
    func lookup() {
        let now = Date()
        let live = Self.key("paywall", [.read], apps: .only(["com.example.app"]))
        let revoked = Self.key("old", [.admin], revoked: true)
        let expired = Self.key("temp", [.read], expiresAt: now - 1)
        let ring = KeyRing(keys: [live.record, revoked.record, expired.record], adminToken: "the-admin-token")
        #expect(ring.lookup(live.text, at: now) == .principal(live.record.principal))
        #expect(ring.lookup(revoked.text, at: now) == .unknown)
        #expect(ring.lookup(expired.text, at: now) == .expired(name: "temp"))
        #expect(ring.lookup(String(live.text.dropLast()), at: now) == .unknown)
        #expect(ring.lookup(live.text + "x", at: now) == .unknown)
        guard case .principal(let admin) = ring.lookup("the-admin-token", at: now) else {
            Issue.record("ADMIN_TOKEN is not accepted")
            return
        }
        #expect(admin.name == "admin-token" && admin.may(.admin) && admin.apps == .all)
        #expect(admin.actor == "key:admin-token")
    }

    @Test("a stored key named admin-token is not let in by that name")
    func adminTokenNameReserved() {
        let impostor = Self.key(KeyRing.adminTokenName, [.admin])
        #expect(KeyRing(keys: [impostor.record]).lookup(impostor.text, at: Date()) == .unknown)
    }

    @Test("the lookup compares the digest with every key, whether it matches the first, the last or none")
    func constantWork() {
        let keys = (0..<8).map { Self.key("key-\($0)", [.read]) }
        let ring = KeyRing(keys: keys.map(\.record))
        for presented in [keys[0].text, keys[7].text, "sk_unknown"] {
            var comparisons = 0
            _ = ring.lookup(digest: APIKeySecret.digest(of: presented), at: Date()) { lhs, rhs in
                comparisons += 1
                return lhs == rhs
            }
            #expect(comparisons == keys.count, "\(presented.prefix(6))…")
        }
    }

    @Test("an app-limited principal sees its apps only; the CLI's principal sees every app with every scope")
    func principals() {
        let limited = Principal(name: "app-a", kind: .apiKey, scopes: [.write], apps: .only(["a"]))
        #expect(limited.sees("a") && !limited.sees("b"))
        #expect(limited.may(.read) && limited.may(.write) && !limited.may(.offers) && !limited.may(.admin))
        let cli = Principal.cli(user: "ana")
        #expect(cli.actor == "cli:ana" && cli.sees("anything") && cli.may(.admin))
    }
}
