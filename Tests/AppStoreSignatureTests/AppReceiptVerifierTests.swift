import AppStore
import AppStoreSignature
import Foundation
import SigningTestSupport
import Testing

/// An app receipt links a user only once its PKCS#7 signature verifies to a receipt root:
/// the genuine sandbox receipt verifies to the bundled Apple Root CA; an unsigned container
/// (the forgery from review), a tampered one and one signed by anyone else do not.
@Suite("App receipts: PKCS#7 signatures verified to Apple's receipt root")
struct AppReceiptVerifierTests {
    static func genuineReceipt() throws -> AppReceiptContents {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: try FixtureFiles.path("v1/DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json")))
        let capture = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let unified = try #require(capture?["unified_receipt"] as? [String: Any])
        return try AppReceiptContents(base64: try #require(unified["latest_receipt"] as? String))
    }

    static func bundledRoot(_ file: String) throws -> AppleRootCertificates {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try AppleRootCertificates(paths: [package.appendingPathComponent("Certificates/\(file)").path])
    }

    @Test(
        "the genuine sandbox receipt (SHA-1 RSA, signed 2020, leaf expired 2023) verifies to the bundled Apple Root CA at its creation date"
    )
    func genuine() async throws {
        let receipt = try Self.genuineReceipt()
        let verifier = AppReceiptVerifier(roots: try Self.bundledRoot("AppleIncRootCertificate.pem"))
        let verified = try await verifier.verify(receipt)
        #expect(verified.bundleID == "com.twigano.fashion")
    }

    @Test("the genuine receipt against Apple Root CA – G3 only is untrusted")
    func otherRoot() async throws {
        let verifier = AppReceiptVerifier(roots: try Self.bundledRoot("AppleRootCA-G3.pem"))
        await #expect(throws: AppReceiptProofError.self) { try await verifier.verify(try Self.genuineReceipt()) }
    }

    @Test("one byte of the genuine receipt's content changed: the signature no longer verifies")
    func tampered() async throws {
        let receipt = try Self.genuineReceipt()
        var bytes = receipt.bytes
        // "com.twigano.fashion" → "com.twigano.fashioN": still a well-formed receipt for another app.
        let name = Array("com.twigano.fashion".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        bytes[at + name.count - 1] = UInt8(ascii: "N")
        let forged = try AppReceiptContents(bytes: bytes)
        #expect(forged.bundleID == "com.twigano.fashioN")
        let verifier = AppReceiptVerifier(roots: try Self.bundledRoot("AppleIncRootCertificate.pem"))
        await #expect(throws: AppReceiptProofError.unsigned("the receipt's PKCS#7 signature does not verify")) {
            try await verifier.verify(forged)
        }
    }

    @Test("the reproduction from review: an unsigned PKCS#7 container carrying a real transaction id")
    func unsignedContainer() async throws {
        let forged = try AppReceiptContents(
            base64: TestAppReceipt.base64(
                bundleID: "com.twigano.fashion",
                purchases: [
                    .init(transactionID: "1000000739325324", originalTransactionID: "1000000723811158")
                ]))
        #expect(forged.firstTransactionID == "1000000739325324", "readable")
        let verifier = AppReceiptVerifier(roots: try Self.bundledRoot("AppleIncRootCertificate.pem"))
        await #expect(throws: AppReceiptProofError.self) { try await verifier.verify(forged) }
    }

    @Test("a receipt signed (ECDSA) by a test PKI verifies to that PKI's root, not to Apple's; without the leaf marker it is refused")
    func testPKI() async throws {
        let pki = try TestPKI()
        let purchases: [TestAppReceipt.Purchase] = [.init(transactionID: "2000000001", originalTransactionID: "1000000001")]
        let created = Date(timeIntervalSince1970: 1_750_000_000)
        let signed = try AppReceiptContents(
            base64: TestAppReceipt.signedBase64(
                bundleID: "com.example.app", purchases: purchases, createdAt: created, by: .init(pki)))
        #expect(signed.createdAt == created)
        let verified = try await AppReceiptVerifier(roots: AppleRootCertificates([pki.root.certificate])).verify(signed)
        #expect(verified.firstTransactionID == "2000000001")
        let apple = AppReceiptVerifier(roots: try Self.bundledRoot("AppleIncRootCertificate.pem"))
        await #expect(throws: AppReceiptProofError.self) { try await apple.verify(signed) }

        let unmarked = try TestPKI(.init(leafMarker: false))
        let unmarkedReceipt = try AppReceiptContents(
            base64: TestAppReceipt.signedBase64(
                bundleID: "com.example.app", purchases: purchases, createdAt: created, by: .init(unmarked)))
        await #expect(throws: AppReceiptProofError.self) {
            try await AppReceiptVerifier(roots: AppleRootCertificates([unmarked.root.certificate])).verify(unmarkedReceipt)
        }
    }

    @Test(
        "hostile bytes: 600 seeded mutations of the genuine receipt are refused or read, never a crash; any that still verifies says exactly what the genuine one says"
    )
    func mutations() async throws {
        let original = try Self.genuineReceipt()
        let genuine = original.bytes
        let verifier = AppReceiptVerifier(roots: try Self.bundledRoot("AppleIncRootCertificate.pem"))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var changedMeaning = 0
        for round in 0..<600 {
            var bytes = genuine
            switch round % 3 {
            case 0: bytes[next() % bytes.count] ^= UInt8(truncatingIfNeeded: 1 + next() % 255)
            case 1: bytes = Array(bytes.prefix(next() % bytes.count))
            default: bytes[next() % 64] = UInt8(truncatingIfNeeded: next())
            }
            guard let contents = try? AppReceiptContents(bytes: bytes) else { continue }
            // Bytes no signature covers (the version, the embedded copy of the root) may change;
            // what the receipt says may not.
            if let verified = try? await verifier.verify(contents),
                (verified.bundleID, verified.createdAt, verified.purchases) != (original.bundleID, original.createdAt, original.purchases)
            {
                changedMeaning += 1
            }
        }
        #expect(changedMeaning == 0, "a receipt that says something else verified")
    }
}
