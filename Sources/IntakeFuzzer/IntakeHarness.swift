import AppStore
import Foundation
import JSON
import Postgres
import Subscriptions

/// Runs one input through every reader an App Store body meets between intake and the
/// database, so a trap anywhere on that path shows up as a fuzzer crash.
///
/// The path: `StrictJSONParser` → `CanonicalJSONWriter` (output parses again) → the typed
/// decoders on the raw bytes and on the tree → `ReceiptFacts` → `snapshot(of:at:)` for each
/// subscription → `Date.postgresValue` for every date the facts hold; the version 2
/// payload decoders with their facts; and the version 2 verifier (``SignedPayloadHarness``).
enum IntakeHarness {
    /// A fixed clock, so a crash reproduces from the input alone.
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    /// With `INTAKE_FUZZ_SKIP_KNOWN_DATE_TRAP=1`, dates `PostgresTimestamp.format` cannot
    /// hold (microseconds beyond `Int64`, or not finite) are not formatted, so a run can get
    /// past that known trap and look for others.
    static let skipKnownDateTrap = ProcessInfo.processInfo.environment["INTAKE_FUZZ_SKIP_KNOWN_DATE_TRAP"] == "1"

    /// With `FUZZ_HARNESS=verifier`, every input goes to the verifier alone (`make fuzz-verifier`).
    static let verifierOnly = ProcessInfo.processInfo.environment["FUZZ_HARNESS"] == "verifier"

    static func run(_ bytes: [UInt8]) {
        if verifierOnly {
            SignedPayloadHarness.runEveryInput(bytes)
            return
        }
        if let tree = try? StrictJSONParser.parse(bytes) {
            checkCanonicalForm(of: tree)
            if let notification = try? NotificationV1.decode(from: tree) { exercise(notification) }
            if let response = try? VerifyReceiptResponse.decode(from: tree) { exercise(response) }
            exerciseSigned(tree)
            SignedPayloadHarness.run(tree)
        }
        // The raw-byte decoders stay in service until intake moves to the tree.
        if let notification = try? NotificationV1.decode(from: bytes) { exercise(notification) }
        if let response = try? VerifyReceiptResponse.decode(from: bytes) { exercise(response) }
    }

    /// Canonical output must be strict JSON again. (It need not be a fixed point: numbers
    /// follow `JSONSerialization`'s lossy `Decimal` path, which can move a digit on re-reading.)
    private static func checkCanonicalForm(of tree: JSONValue) {
        let canonical = CanonicalJSONWriter.bytes(tree)
        guard (try? StrictJSONParser.parse(canonical)) != nil else {
            fatalError("canonical output does not parse")
        }
    }

    /// The version 2 readers: the same JSON as a decoded notification payload, signed
    /// transaction or renewal info (what the verifier hands on once a signature checks out),
    /// through the facts the worker derives from them.
    private static func exerciseSigned(_ tree: JSONValue) {
        if let payload = try? tree.decode(NotificationV2Payload.self) {
            _ = (payload.notificationType, payload.subtype, payload.bundleID, payload.environment, payload.appAppleID)
        }
        let transaction = try? tree.decode(JWSTransactionPayload.self)
        let renewal = try? tree.decode(JWSRenewalInfoPayload.self)
        guard transaction != nil || renewal != nil else { return }
        exercise(ReceiptFacts(signedTransaction: transaction, renewalInfo: renewal, bundleID: "fuzz.app", environment: .sandbox))
    }

    private static func exercise(_ notification: NotificationV1) {
        _ = notification.originalTransactionIDs
        _ = notification.receiptData
        exercise(ReceiptFacts(notification: notification, observedAt: now, bundleID: "fuzz.app"))
    }

    private static func exercise(_ response: VerifyReceiptResponse) {
        _ = VerifyReceiptResponse.classify(status: response.status, isRetryable: response.isRetryable)
        exercise(ReceiptFacts(verifyResponse: response, bundleID: "fuzz.app", observedAt: now))
    }

    private static func exercise(_ facts: ReceiptFacts) {
        for id in facts.subscriptionIDs {
            _ = facts.snapshot(of: id, at: now)
        }
        var dates: [Date] = []
        for fact in facts.transactions {
            dates.append(fact.purchaseDate)
            dates += [fact.originalPurchaseDate, fact.expiresDate, fact.cancellationDate].compactMap { $0 }
        }
        for renewal in facts.renewals {
            dates.append(renewal.observedAt)
            if let grace = renewal.gracePeriodExpiresDate { dates.append(grace) }
        }
        for date in dates {
            if skipKnownDateTrap, !(abs(date.timeIntervalSince1970) < 9.2e12) { continue }
            _ = date.postgresValue
        }
    }
}
