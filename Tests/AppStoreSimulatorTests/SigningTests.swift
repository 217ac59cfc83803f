import AppStoreSimulator
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@Suite("Signing PKI and JWS")
struct SigningTests {
    @Test func pkiPersistsAndReloadsTheSameRoot() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SimPKI.loadOrCreate(in: directory)
        let second = try SimPKI.loadOrCreate(in: directory)
        #expect(first.root.der == second.root.der)
        #expect(first.leaf.der == second.leaf.der)
        #expect(first.leaf.key.rawRepresentation == second.leaf.key.rawRepresentation)
        #expect(second.root.pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let other = try SimPKI.loadOrCreate(in: try temporaryDirectory())
        #expect(other.root.der != first.root.der)
    }

    @Test func anExpiringLeafIsRenewedUnderTheSameRoot() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SimPKI.loadOrCreate(in: directory)
        let later = Date().addingTimeInterval(SimPKI.leafLifetime)
        let renewed = try SimPKI.loadOrCreate(in: directory, now: later)
        #expect(renewed.root.der == first.root.der)
        #expect(renewed.leaf.der != first.leaf.der)
        #expect(try SimPKI.loadOrCreate(in: directory, now: later).leaf.der == renewed.leaf.der)
    }

    @Test func certificatesAreBackdatedBeforeScenarioTime() throws {
        let now = Date()
        let pki = try SimPKI.generate(now: now)
        for issued in [pki.root, pki.intermediate, pki.leaf] {
            #expect(issued.certificate.notValidBefore < now.addingTimeInterval(-5 * 365 * 86_400))
            #expect(issued.certificate.notValidAfter > now.addingTimeInterval(365 * 86_400))
        }
        #expect(pki.root.certificate.notValidAfter > now.addingTimeInterval(19 * 365 * 86_400))
    }

    @Test func v2NotificationVerifiesAndCarriesAppleShapedChain() throws {
        let simulator = makeSimulator()
        let customer = try #require(
            try simulator.addCustomers(
                [CustomerSpec(name: "v2", scenario: .trialRenews, renewals: 1, notificationVersion: .v2)], endingAt: fixedEnd
            ).first)
        let pki = try simulator.signingPKI()
        let notification = try #require(customer.notifications.first)
        let decoded = try DecodedNotificationV2(notification)
        #expect(decoded.outer.header["alg"] as? String == "ES256")
        #expect(decoded.outer.verifies(with: pki.leaf.key.publicKey))
        #expect(!decoded.outer.verifies(with: P256.Signing.PrivateKey().publicKey))
        for nested in ["signedTransactionInfo", "signedRenewalInfo"] {
            let jws = try DecodedJWS(try #require(decoded.data[nested] as? String))
            #expect(jws.verifies(with: pki.leaf.key.publicKey), "\(nested)")
        }

        let chain = try decoded.outer.chain()
        try #require(chain.count == 3)
        let (leaf, intermediate, root) = (chain[0], chain[1], chain[2])
        #expect(leaf.issuer == intermediate.subject)
        #expect(intermediate.issuer == root.subject)
        #expect(root.issuer == root.subject)
        #expect(intermediate.publicKey.isValidSignature(leaf.signature, for: leaf))
        #expect(root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
        #expect(root.publicKey.isValidSignature(root.signature, for: root))
        #expect(leaf.extensions[oid: SimPKI.leafMarker] != nil)
        #expect(intermediate.extensions[oid: SimPKI.intermediateMarker] != nil)
        #expect(leaf.extensions[oid: SimPKI.intermediateMarker] == nil)
        #expect(P256.Signing.PublicKey(leaf.publicKey)?.rawRepresentation == pki.leaf.key.publicKey.rawRepresentation)
        #expect(root == pki.root.certificate)
    }
}
