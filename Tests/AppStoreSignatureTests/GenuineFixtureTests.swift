import AppStore
import AppStoreSignature
import Foundation
import Testing

/// Real Apple-signed sandbox notifications verify against Apple Root CA – G3 at their
/// `signedDate` (two leaves have expired since) and decode into what SOURCES.md records.
@Suite struct GenuineFixtureTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let file: String
        let type: NotificationV2Type
        let subtype: NotificationV2Subtype?
        let bundleID: String
        let uuid: String
        let originalTransactionID: String?
        let productID: String?

        var testDescription: String { file }
    }

    static let expected: [Expected] = [
        .init(
            file: "TEST_2022-09-02_sandbox.json", type: .test, subtype: nil, bundleID: "com.Abilities",
            uuid: "5e09dcfc-205e-4ea1-9883-96676f394992", originalTransactionID: nil, productID: nil),
        .init(
            file: "DID_CHANGE_RENEWAL_PREF_UPGRADE_2025-07-30_sandbox.json", type: .didChangeRenewalPref,
            subtype: .upgrade, bundleID: "GeniusParentingAI", uuid: "0a3ffa47-4551-4db9-a938-c70de3352682",
            originalTransactionID: "2000000970472825", productID: "ca.geniusparentingai.basic.monthly"),
        .init(
            file: "DID_RENEW_2025-10-01_sandbox.json", type: .didRenew, subtype: nil,
            bundleID: "com.loki-project.loki-messenger", uuid: "1a7cdc3d-9360-49c3-ae37-0423e4c6e7c7",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
        .init(
            file: "SUBSCRIBED_RESUBSCRIBE_2025-10-02_sandbox.json", type: .subscribed, subtype: .resubscribe,
            bundleID: "com.loki-project.loki-messenger", uuid: "9f9730f8-f3df-436a-b7e5-e85ef9c6afe4",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
        .init(
            file: "DID_CHANGE_RENEWAL_STATUS_AUTO_RENEW_DISABLED_2025-10-02_sandbox.json",
            type: .didChangeRenewalStatus, subtype: .autoRenewDisabled,
            bundleID: "com.loki-project.loki-messenger", uuid: "ebb7519a-1f8b-4038-8228-5b1250ab998d",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
        .init(
            file: "EXPIRED_VOLUNTARY_2025-10-02_sandbox.json", type: .expired, subtype: .voluntary,
            bundleID: "com.loki-project.loki-messenger", uuid: "c7726298-32eb-48f7-9623-097ff6de4d69",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
        .init(
            file: "CONSUMPTION_REQUEST_2025-10-16_sandbox.json", type: .consumptionRequest, subtype: nil,
            bundleID: "com.loki-project.loki-messenger", uuid: "15101c57-7b3d-49c2-8adf-74ac2740ea8c",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
        .init(
            file: "REFUND_2025-10-16_sandbox.json", type: .refund, subtype: nil,
            bundleID: "com.loki-project.loki-messenger", uuid: "caeda1df-9950-458d-87a7-93bb009e7391",
            originalTransactionID: "2000001024993299", productID: "com.getsession.org.pro_sub"),
    ]

    static func g3Verifier() throws -> SignedPayloadVerifier {
        SignedPayloadVerifier(roots: try AppleRootCertificates(paths: [FixtureFiles.path("apple-root-ca-g3.pem")]))
    }

    @Test(arguments: expected)
    func verifiesAndDecodes(_ expected: Expected) async throws {
        let jws = try FixtureFiles.signedPayload("v2-genuine/" + expected.file)
        let verified = try await Self.g3Verifier().verifyNotification(jws)
        let payload = verified.payload
        #expect(payload.notificationType == expected.type)
        #expect(payload.subtype == expected.subtype)
        #expect(payload.environment == .sandbox)
        #expect(payload.bundleID == expected.bundleID)
        #expect(payload.notificationUUID == expected.uuid)
        #expect(payload.version == "2.0")
        #expect(verified.transaction?.originalTransactionID == expected.originalTransactionID)
        #expect(verified.transaction?.productID == expected.productID)
        if expected.originalTransactionID != nil {
            #expect(verified.transaction?.expiresDate != nil)
            #expect(verified.transaction?.type == .autoRenewable)
            #expect(verified.renewalInfo?.originalTransactionID == expected.originalTransactionID)
            #expect(verified.renewalInfo?.environment == .sandbox)
        } else {
            #expect(verified.transaction == nil)
            #expect(verified.renewalInfo == nil)
        }
        // Sandbox skips the appAppleId comparison, as Apple's library does.
        try AppIdentityCheck.check(verified, bundleID: expected.bundleID, appAppleID: nil)
    }

    @Test func refundCarriesRevocation() async throws {
        let jws = try FixtureFiles.signedPayload("v2-genuine/REFUND_2025-10-16_sandbox.json")
        let verified = try await Self.g3Verifier().verifyNotification(jws)
        #expect(verified.transaction?.revocationDate == Date(timeIntervalSince1970: 1_760_591_999))
        #expect(verified.transaction?.price == 1990)
        #expect(verified.payload.data?.appAppleID == "1470168868")
    }

    @Test func wrongBundleFailsTheAppCheck() async throws {
        let jws = try FixtureFiles.signedPayload("v2-genuine/DID_RENEW_2025-10-01_sandbox.json")
        let verified = try await Self.g3Verifier().verifyNotification(jws)
        #expect(throws: SignedPayloadError.self) {
            try AppIdentityCheck.check(verified, bundleID: "com.example.other", appAppleID: nil)
        }
    }

    @Test(arguments: ["TEST_apple-library-testNotification.json", "TEST_apple-library-wrongBundleId.json"])
    func testSignedVerifyOnlyAgainstTheTestCA(_ file: String) async throws {
        let jws = try FixtureFiles.signedPayload("v2-test-signed/" + file)
        // wrongBundleId has no signedDate: pin "now" to the other file's signing time.
        let signingTime = Date(timeIntervalSince1970: 1_681_314_324)
        let testCA = SignedPayloadVerifier(
            roots: try AppleRootCertificates(paths: [FixtureFiles.path("apple-library-testCA.der")]),
            now: { signingTime }
        )
        let verified = try await testCA.verifyNotification(jws)
        #expect(verified.payload.notificationType == .test)
        #expect(verified.payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")

        let g3 = SignedPayloadVerifier(
            roots: try AppleRootCertificates(paths: [FixtureFiles.path("apple-root-ca-g3.pem")]),
            now: { signingTime }
        )
        let error = await #expect(throws: SignedPayloadError.self) { try await g3.verifyNotification(jws) }
        #expect(error?.kind == .rejected)
    }
}
