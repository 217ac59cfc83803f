import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

/// Version 2 bodies stored without their certificate chains: each chain is stored once for
/// every notification that carries it, the worker claims the chainless body, and `notifications
/// show` (the detail) gives the body as Apple sent it.
@Suite("Certificate chains: stored once, put back when a notification is shown")
struct CertificateChainStorageTests {
    /// A compact JWS whose header carries `chain` and whose payload nests one JWS carrying it too.
    static func signedPayload(uuid: String, chain: String) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","x5c":\#(chain)}"#.utf8))
        let nestedPayload = Base64URL.encode(Array(#"{"transactionId":"1"}"#.utf8))
        let payload = Base64URL.encode(
            Array(#"{"notificationUUID":"\#(uuid)","data":{"signedTransactionInfo":"\#(header).\#(nestedPayload).AAAA"}}"#.utf8))
        return "\(header).\(payload).AAAA"
    }

    static func entry(uuid: String, chain: String) throws -> (InboxEntry, received: String) {
        let received = signedPayload(uuid: uuid, chain: chain)
        let (chainless, chains) = try #require(SignedPayloadChains.split(received))
        let entry = InboxEntry(
            source: .v2, dedupeKey: "v2:" + uuid, notificationType: "DID_RENEW", environment: .production, bundleID: "com.example.app",
            originalTransactionID: "1", body: #"{"signedPayload":"\#(chainless)"}"#, certificateChains: chains)
        return (entry, received)
    }

    /// The chain ids the `signedPayload` of a stored body references.
    static func references(inBody body: String) -> [String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        return SignedPayloadChains.references(in: object?["signedPayload"] as? String ?? "")
    }

    @Test("three notifications with one chain store it once; show puts it back; the worker gets the chainless body")
    func storedOnceShownWhole() async throws {
        let chain = #"["\#(String(repeating: "Q", count: 4_000))","QkJC"]"#
        let other = #"["T1RIRVI="]"#
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            let (first, firstReceived) = try Self.entry(uuid: "u1", chain: chain)
            let (second, _) = try Self.entry(uuid: "u2", chain: chain)
            _ = try await inbox.insertBatch([first, second])
            let (third, thirdReceived) = try Self.entry(uuid: "u3", chain: other)
            let (fourth, _) = try Self.entry(uuid: "u4", chain: chain)
            _ = try await inbox.insertBatch([third, fourth])

            let chains = try await client.query("SELECT chain FROM certificate_chains ORDER BY chain").map {
                try $0.decode("chain", as: String.self)
            }
            #expect(chains == [chain, other].sorted())
            let stored = try await client.query("SELECT max(octet_length(body::text)) AS n FROM notifications")
            #expect(try stored[0].decode("n", as: Int.self) < 1_000, "a body without its 4 kB chain")

            let queries = InboxQueries(client: client)
            let ids = try await client.query("SELECT id FROM notifications ORDER BY dedupe_key").map { try $0.decode("id", as: Int64.self) }
            let shownFirst = try #require(try await queries.detail(id: ids[0]))
            #expect(shownFirst.body.contains(firstReceived))
            let shownThird = try #require(try await queries.detail(id: ids[2]))
            #expect(shownThird.body.contains(thirdReceived))

            let claimed = try await inbox.claimDue(limit: 10, lease: .seconds(30))
            #expect(claimed.count == 4)
            #expect(claimed.allSatisfy { $0.body.utf8.count < 1_000 && !Self.references(inBody: $0.body).isEmpty })
        }
    }

    @Test("a body stored with its chains (before 0039) is shown as stored; one whose chain is gone too")
    func storedWholeOrChainGone() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            let whole = Self.signedPayload(uuid: "old", chain: #"["QUFB"]"#)
            _ = try await inbox.insert(
                InboxEntry(
                    source: .v2, dedupeKey: "v2:old", notificationType: "DID_RENEW", environment: .production, bundleID: "com.example.app",
                    originalTransactionID: "1", body: #"{"signedPayload":"\#(whole)"}"#))
            let (entry, _) = try Self.entry(uuid: "gone", chain: #"["R09ORQ=="]"#)
            _ = try await inbox.insert(entry)
            try await client.execute("DELETE FROM certificate_chains")

            let queries = InboxQueries(client: client)
            let ids = try await client.query("SELECT id FROM notifications ORDER BY dedupe_key").map { try $0.decode("id", as: Int64.self) }
            #expect(try #require(try await queries.detail(id: ids[1])).body.contains(whole))
            #expect(!Self.references(inBody: try #require(try await queries.detail(id: ids[0])).body).isEmpty)
        }
    }
}
