import Foundation

/// A subscriber or entitlements JSON body, read back for assertions.
struct SubscriberJSON {
    let object: [String: Any]

    init(_ body: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        self.object = object
    }

    var subscriptions: [[String: Any]] { object["subscriptions"] as? [[String: Any]] ?? [] }
    var purchases: [[String: Any]] { object["purchases"] as? [[String: Any]] ?? [] }

    /// One entitlement's members (`active`, `source`, …); nil when absent.
    func entitlement(_ id: String) -> [String: Any]? {
        (object["entitlements"] as? [String: Any])?[id] as? [String: Any]
    }

    /// `active` and `source` of one entitlement, `source` "-" when null.
    func summary(_ id: String) -> String {
        guard let entitlement = entitlement(id) else { return "absent" }
        let active = entitlement["active"] as? Bool == true ? "active" : "inactive"
        return "\(active):\(entitlement["source"] as? String ?? "-")"
    }
}
