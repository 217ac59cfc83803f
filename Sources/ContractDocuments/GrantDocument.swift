import Subscriptions

/// A manual grant as the API and `subscriptionctl grants --json` show it:
/// `{"app_user_id", "created_at", "entitlement", "expires_at", "grant_id", "reason", "revoked_at"}`.
public struct GrantDocument: Sendable, ContractJSONWritable {
    let grant: ManualGrant

    /// Wraps a grant.
    public init(_ grant: ManualGrant) {
        self.grant = grant
    }

    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("app_user_id")
            json.value(grant.appUserID)
            json.key("created_at")
            json.value(grant.createdAt)
            json.key("entitlement")
            json.value(grant.entitlement)
            json.key("expires_at")
            json.value(grant.expiresAt)
            json.key("grant_id")
            json.value(Int(truncatingIfNeeded: grant.id))
            json.key("reason")
            json.value(grant.reason)
            json.key("revoked_at")
            json.value(grant.revokedAt)
        }
    }
}

/// `{"grants": [...]}`.
public struct GrantListDocument: Sendable, ContractJSONWritable {
    let grants: [ManualGrant]

    /// Wraps grants, in the order given.
    public init(_ grants: [ManualGrant]) {
        self.grants = grants
    }

    public func write(to writer: inout ContractJSONWriter) {
        writer.object { json in
            json.key("grants")
            json.array { json in
                for grant in grants { GrantDocument(grant).write(to: &json) }
            }
        }
    }
}
