import AppStore
import Foundation
import JSON
import Postgres

/// The `certificate_chains` a stored v2 body references (``SignedPayloadChains``).
enum StoredCertificateChains {
    /// `body` with its `signedPayload` as Apple sent it: the chains it references read and
    /// put back. A body that references none (v1, or stored before chains were kept apart) is
    /// returned as it is, and so is one whose chain is missing (it still decodes; it no longer
    /// verifies).
    static func joined(_ body: String, in session: PostgresSession) throws -> String {
        guard let signedPayload = (try? StrictJSONParser.parse(Array(body.utf8)))?["signedPayload"]?.stringValue else { return body }
        let ids = SignedPayloadChains.references(in: signedPayload)
        guard !ids.isEmpty else { return body }
        var chains: [String: String] = [:]
        for row in try session.query(PostgresQuery("SELECT id, chain FROM certificate_chains WHERE id = ANY(\(ids)::text[])")) {
            chains[try row.decode("id")] = try row.decode("chain")
        }
        guard let received = SignedPayloadChains.joined(signedPayload, chains: chains) else { return body }
        // Base64url and dots only: the payload's text is the same in the body's JSON.
        return body.replacingOccurrences(of: signedPayload, with: received)
    }
}
