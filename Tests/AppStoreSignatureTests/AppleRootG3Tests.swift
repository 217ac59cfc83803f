import AppStoreSignature
import Foundation
import SigningTestSupport
import Testing

/// Startup warns when a configured root is not Apple Root CA – G3; this is how it tells.
@Suite struct AppleRootG3Tests {
    @Test func theBundledRootIsApples() throws {
        let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Certificates/AppleRootCA-G3.pem")
        let roots = try AppleRootCertificates(paths: [bundled.path])
        #expect(roots.rootsOtherThanAppleRootCAG3.isEmpty)
    }

    @Test func anyOtherRootIsNamed() throws {
        let roots = AppleRootCertificates([try TestPKI().root.certificate])
        #expect(roots.rootsOtherThanAppleRootCAG3.count == 1)
    }
}
