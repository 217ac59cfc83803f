import Foundation
import TestSupport
import Testing

/// One composition root: what talks to Apple and verifies what Apple signs is built in one
/// place (`AppleUpstreams`), so a setting cannot apply to one executable and not the other.
@Suite("The composition root is the only place that builds verifiers and Apple's clients")
struct CompositionRootTests {
    /// The targets of the two executables and everything they link; the fuzzer, the
    /// signature bench, the simulator and the test helpers make verifiers of their own on purpose.
    static let productionTargets = [
        "AppStore", "AppStoreServerAPI", "AppStoreSignature", "CatalogFiles", "Composition", "ContractDocuments", "HTTPClient",
        "Intake", "JSON", "Postgres", "Server", "ServiceSupport", "Settings", "Store", "StoredAnswers", "Subscriptions", "UseCases",
        "Webhooks", "subscriptionctl", "subscriptiond",
    ]

    /// Every non-comment line of the production targets that calls `initializer`, as `file: line`.
    static func calls(of initializer: String) throws -> [String] {
        let sources = TestEnvironment.repositoryRoot().appendingPathComponent("Sources")
        var found: [String] = []
        for target in productionTargets {
            let folder = sources.appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains(initializer + "(") {
                    guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                    found.append("\(target)/\(file): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found.sorted()
    }

    @Test("SignedPayloadVerifier and AppReceiptVerifier are made only by AppleUpstreams")
    func oneVerifier() throws {
        for initializer in ["SignedPayloadVerifier", "AppReceiptVerifier"] {
            let calls = try Self.calls(of: initializer)
            #expect(calls.count == 1 && calls.allSatisfy { $0.hasPrefix("Composition/AppleUpstreams.swift:") }, "\(calls)")
        }
    }
}
