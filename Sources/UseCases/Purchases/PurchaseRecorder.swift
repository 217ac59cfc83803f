import Access
import AppStore
import AppStoreSignature
import Foundation
import Logging
import ServiceSupport
import Settings
import Store
import Subscriptions

/// "Here is what this user bought": a receipt, a StoreKit 2 signed transaction or a
/// transaction id, from the app's backend (`/v1/receipts`, `/v1/transactions`).
///
/// Apple is asked (``AppleEvidence``), its answer applied with the user linked
/// (``FactApplier``) and the user's subscriptions read back. When Apple does not answer
/// within `wait` the purchase is queued in the inbox for the worker instead (``Recorded/queued``),
/// so nothing the app sent is lost. A signed transaction is verified here, offline.
public struct PurchaseRecorder: Sendable {
    /// What recording came to.
    public enum Recorded: Sendable {
        /// Applied: the user's subscriber JSON now.
        case applied(String)
        /// Apple did not answer in time: queued, finished by the worker.
        case queued
    }

    private let evidence: AppleEvidence
    private let applier: FactApplier
    private let answers: any SubscriberDocumentSource
    private let queue: any PurchaseQueue
    private let signatures: SignedPayloadVerifier
    private let receiptProof: AppReceiptVerifier
    private let apps: AppRegistry
    private let wait: Duration
    private let onQueued: @Sendable () async -> Void

    /// - Parameters:
    ///   - queue: where a purchase waits for the worker when Apple does not answer in time.
    ///   - answers: reads the user's subscriber JSON back.
    ///   - wait: how long a request waits for Apple before its purchase is queued.
    ///   - onQueued: called after a purchase is queued (to wake the worker).
    public init(
        evidence: AppleEvidence, applier: FactApplier, queue: any PurchaseQueue, answers: any SubscriberDocumentSource,
        signatures: SignedPayloadVerifier, receiptProof: AppReceiptVerifier, apps: AppRegistry, wait: Duration,
        onQueued: @escaping @Sendable () async -> Void
    ) {
        self.evidence = evidence
        self.applier = applier
        self.answers = answers
        self.queue = queue
        self.signatures = signatures
        self.receiptProof = receiptProof
        self.apps = apps
        self.wait = wait
        self.onQueued = onQueued
    }

    /// A device's receipt: verified with `verifyReceipt`, or, for an app with an App Store
    /// Server API key and no shared secret, looked up by the transaction id it names once its
    /// signature verifies.
    public func record(
        receipt submission: ReceiptSubmission, appUserID: String, visibleTo visible: AppScope, logger: Logger
    ) async throws -> Recorded {
        try visible.require(submission.app.bundleID)
        if submission.isLookedUp(by: evidence) {
            return try await record(
                lookup: try await submission.provenTransactionID(verifiedBy: receiptProof), bundleID: submission.app.bundleID,
                appUserID: appUserID, visibleTo: visible, logger: logger)
        }
        let evidence = self.evidence
        let answer =
            await firstResult(within: wait) {
                await evidence.verify(receipt: submission.receiptData, app: submission.app, keepingReceipt: true, logger: logger)
            } ?? .retry(reason: "the App Store did not answer within \(wait)", limited: false)
        switch answer {
        case .facts(let batches):
            return try await applied(batches, appUserID: appUserID, visibleTo: visible)
        case .retry(let reason, _):
            return try await queue(
                try QueuedPurchases.receiptEntry(
                    receiptData: submission.receiptData, bundleID: submission.app.bundleID, appUserID: appUserID),
                because: reason, logger: logger)
        case .refused(let reason, _):
            throw UseCaseError.receiptRejected("the App Store rejected the receipt: \(reason)")
        }
    }

    /// A transaction id, looked up with the App Store Server API of `bundleID` (nil: the only
    /// app with an API key).
    public func record(
        lookup transactionID: String, bundleID: String?, appUserID: String, visibleTo visible: AppScope, logger: Logger
    ) async throws -> Recorded {
        if let bundleID { try visible.require(bundleID) }
        let bundleID = try evidence.appWithAPIKey(bundleID, hint: ": send signed_transaction instead")
        try visible.require(bundleID)
        let evidence = self.evidence
        let grandfathers = apps.grandfathers(bundleID: bundleID)
        let answer =
            await firstResult(within: wait) {
                await evidence.lookUpForLinking(
                    transactionID: transactionID, bundleID: bundleID, readingOriginalVersion: grandfathers, logger: logger)
            } ?? .retry(reason: "the App Store Server API did not answer within \(wait)", limited: false)
        switch answer {
        case .facts(let batches):
            return try await applied(batches, appUserID: appUserID, visibleTo: visible)
        case .refused(_, notFound: true):
            throw UseCaseError.signatureRejected("the App Store does not know transaction \(transactionID) in either environment")
        case .refused(let reason, _):
            throw UseCaseError.signatureRejected("the App Store Server API refused the lookup: \(reason)")
        case .retry(let reason, _):
            return try await queue(
                QueuedPurchases.lookupEntry(transactionID: transactionID, bundleID: bundleID, appUserID: appUserID),
                because: reason, logger: logger)
        }
    }

    /// A StoreKit 2 signed transaction from the device, verified offline (chain to a
    /// configured root, signature, a configured app) and applied.
    public func record(
        signedTransaction jws: String, appUserID: String, visibleTo visible: AppScope, logger: Logger
    ) async throws -> Recorded {
        if let claim = XcodeTransactionCertificate.claim(of: jws) {
            return try await record(
                xcodeTransaction: jws, claimedBundleID: claim.bundleID, appUserID: appUserID, visibleTo: visible, logger: logger)
        }
        let transaction = try await DeviceSignedPayload.transaction.verified(
            jws, as: JWSTransactionPayload.self, by: signatures, logger: logger)
        guard let bundleID = transaction.bundleID, let app = apps.app(bundleID: bundleID),
            (try? AppIdentityCheck.check(transaction, bundleID: app.bundleID, environment: nil)) != nil
        else {
            throw UseCaseError.signatureRejected("the signed transaction is not for a configured app")
        }
        let facts = ReceiptFacts(
            signedTransaction: transaction, renewalInfo: nil, bundleID: app.bundleID, environment: transaction.environment ?? .production)
        return try await applied(
            [FactBatch(facts: facts, observedAt: transaction.signedDate ?? .now)], appUserID: appUserID, visibleTo: visible)
    }

    /// A purchase made with StoreKit Testing in Xcode: signed by the app's StoreKit
    /// configuration certificate (`xcode_certificate_file`) rather than Apple, stored with the
    /// environment `Xcode`, which grants only in apps that accept such purchases.
    private func record(
        xcodeTransaction jws: String, claimedBundleID: String?, appUserID: String, visibleTo visible: AppScope, logger: Logger
    ) async throws -> Recorded {
        guard let bundleID = claimedBundleID, let app = apps.app(bundleID: bundleID) else {
            throw UseCaseError.signatureRejected("the signed transaction is not for a configured app")
        }
        guard let certificate = app.xcodeCertificate else {
            throw UseCaseError.signatureRejected(
                "the signed transaction was made with StoreKit Testing in Xcode, which \(bundleID) does not accept (xcode_certificate_file)"
            )
        }
        let transaction: JWSTransactionPayload
        do {
            transaction = try certificate.verifyTransaction(jws)
        } catch {
            logger.info("Xcode transaction rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw UseCaseError.signatureRejected("the signed transaction does not verify with \(bundleID)'s Xcode certificate")
        }
        let facts = ReceiptFacts(signedTransaction: transaction, renewalInfo: nil, bundleID: bundleID, environment: .xcode)
        return try await applied(
            [FactBatch(facts: facts, observedAt: transaction.signedDate ?? .now)], appUserID: appUserID, visibleTo: visible)
    }

    /// What Apple says of a receipt now, applied nowhere (`/v1/eligibility` with a receipt).
    /// An app without a shared secret gets the customer's whole history from the API (an
    /// offer used years ago in the group counts).
    public func facts(of submission: ReceiptSubmission, logger: Logger) async throws -> [ReceiptFacts] {
        if submission.isLookedUp(by: evidence) {
            let transactionID = try await submission.provenTransactionID(verifiedBy: receiptProof)
            let evidence = self.evidence
            let answer = await firstResult(within: wait) {
                await evidence.lookUp(
                    transactionID: transactionID, bundleID: submission.app.bundleID, environment: nil, withHistory: true, logger: logger)
            }
            switch answer {
            case .facts(let batches)?:
                return batches.map(\.facts)
            case .refused(_, notFound: true)?:
                throw UseCaseError.receiptRejected(
                    "the App Store does not know the receipt's transaction \(transactionID) in either environment")
            case .refused(let reason, _)?:
                throw UseCaseError.receiptRejected("the App Store Server API refused the lookup: \(reason)")
            case .retry?, nil:
                throw UseCaseError.unavailable("the App Store Server API cannot answer right now; retry later")
            }
        }
        switch await evidence.verify(receipt: submission.receiptData, app: submission.app, keepingReceipt: false, logger: logger) {
        case .facts(let batches):
            return batches.map(\.facts)
        case .retry:
            throw UseCaseError.unavailable("the App Store cannot verify the receipt right now; retry later")
        case .refused(let reason, _):
            throw UseCaseError.receiptRejected("the App Store rejected the receipt: \(reason)")
        }
    }

    /// Applies what Apple said with the user linked, unless it is about an app the principal
    /// does not see (then nothing is stored and the request is 403).
    private func applied(_ batches: [FactBatch], appUserID: String, visibleTo visible: AppScope) async throws -> Recorded {
        for batch in batches { try visible.require(batch.facts.bundleID) }
        try await applier.apply(batches, appUserID: appUserID)
        return .applied(try await answers.subscriberBodyEvenIfUnknown(appUserID: appUserID, now: Date()))
    }

    private func queue(_ entry: InboxEntry, because reason: String, logger: Logger) async throws -> Recorded {
        let stored = try await queue.insert(entry)
        await onQueued()
        logger.info("purchase queued: Apple did not answer", metadata: [LogKey.error: "\(reason)", LogKey.notificationID: "\(stored)"])
        return .queued
    }
}
