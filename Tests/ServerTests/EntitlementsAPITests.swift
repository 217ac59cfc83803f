import Foundation
import HTTPClient
import Postgres
import Testing

/// The entitlement routes over HTTP: `/entitlements` reads, grants, AppTransactions, their
/// errors in the contract's shape.
@Suite("Query API: entitlements, grants, AppTransactions")
struct EntitlementsAPITests {
    @Test("the entitlements read; grants added, refused and revoked; AppTransactions refused without changing anything")
    func routes() async throws {
        try await RunningService.with(runsWorker: false) { service in
            try await service.database.execute(
                "INSERT INTO products (product_id, bundle_id, type) VALUES ('com.example.pro.lifetime', 'com.example.app', 'non_consumable')"
            )
            try await service.database.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
            try await service.database.execute(
                "INSERT INTO entitlement_products (entitlement_id, product_id) VALUES ('pro', 'com.example.pro.lifetime')")
            let unknown = try await service.get("/v1/subscribers/nobody/entitlements")
            #expect(unknown.status == 404)
            #expect(try jsonObject(unknown)["error"] as? String == "not_found")
            #expect(try await service.get("/v1/subscribers/nobody/entitlements", token: "wrong").status == 401)

            let granted = try await service.post(
                "/v1/subscribers/user-7/grants", ["entitlement": "pro", "expires_at": NSNull(), "reason": "comp"])
            #expect(granted.status == 201)
            let grant = try jsonObject(granted)
            let id = try #require(grant["grant_id"] as? Int)
            #expect(grant["entitlement"] as? String == "pro" && grant["expires_at"] is NSNull && grant["revoked_at"] is NSNull)

            let read = try jsonObject(try await service.get("/v1/subscribers/user-7/entitlements"))
            #expect(read["app_user_id"] as? String == "user-7")
            let pro = try #require((read["entitlements"] as? [String: Any])?["pro"] as? [String: Any])
            #expect(pro["active"] as? Bool == true && pro["source"] as? String == "grant" && pro["product_id"] is NSNull)
            let subscriber = try jsonObject(try await service.get("/v1/subscribers/user-7"))
            #expect(subscriber["purchases"] as? [Any] != nil && subscriber["entitlements"] as? [String: Any] != nil)

            for (body, status, code) in [
                (["entitlement": "ghost", "reason": "x"] as [String: Any], 404, "unknown_entitlement"),
                (["entitlement": "pro", "reason": "x", "expires_at": "tomorrow"], 400, "malformed"),
                (["entitlement": "pro", "reason": "x", "expires_at": "2001-01-01T00:00:00Z"], 400, "malformed"),
                (["entitlement": "pro"], 400, "malformed"),
            ] {
                let refused = try await service.post("/v1/subscribers/user-7/grants", body)
                #expect(refused.status == status, "\(body)")
                #expect(try jsonObject(refused)["error"] as? String == code, "\(body)")
            }

            #expect(try await service.delete("/v1/subscribers/someone-else/grants/\(id)").status == 404)
            #expect(try await service.delete("/v1/subscribers/user-7/grants/abc").status == 400)
            let revoked = try await service.delete("/v1/subscribers/user-7/grants/\(id)")
            #expect(revoked.status == 200)
            #expect(try jsonObject(revoked)["revoked_at"] as? String != nil)
            let after = try jsonObject(try await service.get("/v1/subscribers/user-7/entitlements"))
            #expect(((after["entitlements"] as? [String: Any])?["pro"] as? [String: Any])?["active"] as? Bool == false)

            let notJWS = try await service.post("/v1/app-transactions", ["app_user_id": "user-8", "signed_app_transaction": "abc"])
            #expect(notJWS.status == 400)
            #expect(try await service.post("/v1/app-transactions", ["app_user_id": "user-8"]).status == 400)
            #expect(try await service.get("/v1/subscribers/user-8/entitlements").status == 404)
            let audit = try await service.database.query("SELECT action FROM audit_log ORDER BY id").map {
                try $0.decode("action", as: String.self)
            }
            #expect(audit == ["grant_added", "grant_revoked"])
        }
    }
}
