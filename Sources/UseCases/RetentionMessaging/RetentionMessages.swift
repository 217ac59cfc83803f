import AppStore
import AppStoreSignature
import Foundation
import Logging
import ServiceSupport
import Settings
import Store
import Subscriptions

/// Answers the App Store's Get Retention Message request (`POST /retention/appstore`): a
/// customer is looking at a subscription they may cancel, and the app's `"retention"` rules,
/// judged on this server's stored facts, choose what they see (DESIGN.md, "Apple's 2025–2026
/// server features").
///
/// The request is verified like a notification (chain, Apple's marker OIDs, `appAppleId` in
/// Production, a `signedDate` minutes old at most). Then nothing on the way to the answer
/// calls Apple or writes: one read of the account's facts and the catalog kept in memory. An
/// answer not ready within the deadline, or a read that fails, is Apple's default message, at
/// once; what was answered is handed to the recorder afterwards.
public struct RetentionMessages: Sendable {
    /// What the App Store is told.
    public struct Answer: Sendable, Equatable {
        /// The rule's action, or nil: Apple shows its default message.
        public let action: RetentionAction?
        /// The promotional offer's StoreKit 2 signature (a JWS naming the request's original
        /// transaction), with a `promotionalOffer` action.
        public let promotionalOfferSignature: String?
        /// Why this answer.
        public let reason: RetentionAnswerRecord.Reason

        static func appleDefault(_ reason: RetentionAnswerRecord.Reason) -> Answer {
            Answer(action: nil, promotionalOfferSignature: nil, reason: reason)
        }
    }

    /// How old a request may be when it arrives: the App Store asks in real time.
    public static let maximumRequestAge: TimeInterval = 300
    /// How far ahead of this server's clock a request may be signed (clocks differ a little;
    /// a request signed for later could be kept and replayed).
    public static let maximumClockSkew: TimeInterval = 60
    /// How long the answer may take before Apple's default is answered instead, far inside
    /// the App Store's ~700 ms.
    public static let defaultDeadline: Duration = .milliseconds(250)

    private let apps: AppRegistry
    private let verifier: SignedPayloadVerifier
    private let accounts: any AppleAccountSource
    private let catalog: any CatalogSource
    private let eligibilityPolicy: EligibilityPolicy
    private let recorder: any RetentionAnswerRecording
    private let signers: [String: StoreKitOfferSigner]
    private let deadline: Duration
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// Answers for the configured `apps`, verifying with `verifier`, judging from `accounts`
    /// and `catalog` under `eligibilityPolicy`, handing each answer to `recorder`.
    public init(
        apps: AppRegistry, verifier: SignedPayloadVerifier, accounts: any AppleAccountSource, catalog: any CatalogSource,
        eligibilityPolicy: EligibilityPolicy, recorder: any RetentionAnswerRecording, deadline: Duration = Self.defaultDeadline,
        now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.apps = apps
        self.verifier = verifier
        self.accounts = accounts
        self.catalog = catalog
        self.eligibilityPolicy = eligibilityPolicy
        self.recorder = recorder
        self.deadline = deadline
        self.now = now
        self.logger = logger
        // One signer per app whose rules sign offers, made once (its key parsed once).
        var signers: [String: StoreKitOfferSigner] = [:]
        for bundleID in apps.bundleIDs {
            guard let app = apps.app(bundleID: bundleID), !app.retentionRules.offers.isEmpty else { continue }
            signers[bundleID] = (try? app.offerSigner()) ?? nil
        }
        self.signers = signers
    }

    /// The app's rule problems against the catalog as it is now: the first product a rule
    /// names that the catalog does not list for its app (startup stops on it), or nil.
    public func ruleProblem() async throws -> String? {
        let catalog = try await self.catalog.catalog()
        for bundleID in apps.bundleIDs {
            guard let rules = apps.app(bundleID: bundleID)?.retentionRules, !rules.isEmpty else { continue }
            if let problem = rules.problem(against: catalog, bundleID: bundleID) { return "app \(bundleID): \(problem)" }
        }
        return nil
    }

    /// The answer to one request's `signedPayload`: `malformed` when it is not a signed
    /// retention request, `signatureRejected` when it does not verify for a configured app or is
    /// stale, `unavailable` when online checks are on and a responder is silent. Everything
    /// after verification answers: Apple's default message when nothing better is ready.
    public func answer(signedPayload: String) async throws -> Answer {
        let request = try await verified(signedPayload)
        let started = now()
        let judged = await resultOrNil(within: deadline) { [self] in
            do {
                return Result<Judged, any Error>.success(try await judge(request, at: started))
            } catch {
                return .failure(error)
            }
        }
        let outcome: Judged
        switch judged {
        case .success(let answer)?:
            outcome = answer
        case .failure(let error)?:
            logger.warning("retention answer failed; Apple's default message answered", metadata: [LogKey.error: "\(error)"])
            outcome = Judged(bundleID: nil, answer: .appleDefault(.failed), ruleIndex: nil)
        case nil:
            logger.warning("retention answer not ready in time; Apple's default message answered")
            outcome = Judged(bundleID: nil, answer: .appleDefault(.deadline), ruleIndex: nil)
        }
        recorder.submit(record(of: outcome, for: request, at: started))
        return outcome.answer
    }

    /// A verified request: its subscription, environment and id.
    private struct VerifiedRequest: Sendable {
        let payload: RealtimeRequestPayload
        let environment: AppStoreEnvironment
        let originalTransactionID: String
        let requestIdentifier: String
    }

    /// An answer and what it was judged for.
    private struct Judged: Sendable {
        let bundleID: String?
        let answer: Answer
        let ruleIndex: Int?
    }

    private func verified(_ signedPayload: String) async throws -> VerifiedRequest {
        let payload: RealtimeRequestPayload
        do {
            payload = try await verifier.verify(signedPayload, as: RealtimeRequestPayload.self)
        } catch  where error.kind == .malformed {
            throw UseCaseError.malformed("signedPayload is not a signed App Store retention request (\(error.reason))")
        } catch  where error.kind == .unavailable {
            throw UseCaseError.unavailable("the signed payload cannot be checked now (an OCSP responder did not answer)")
        } catch {
            logger.info("retention request rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw Self.rejection
        }
        guard let environment = payload.environment, environment != .xcode else {
            logger.info("retention request rejected", metadata: [LogKey.error: "unknown environment"])
            throw Self.rejection
        }
        guard let signedDate = payload.signedDate, now().timeIntervalSince(signedDate) <= Self.maximumRequestAge,
            signedDate.timeIntervalSince(now()) <= Self.maximumClockSkew
        else {
            logger.info("retention request rejected", metadata: [LogKey.error: "signedDate older than a real-time request"])
            throw UseCaseError.signatureRejected(
                "the retention request was signed more than \(Int(Self.maximumRequestAge)) seconds ago or more than \(Int(Self.maximumClockSkew)) seconds ahead; the App Store asks in real time"
            )
        }
        // In Production the app must be one of ours by its Apple ID, as for notifications.
        if environment == .production {
            guard let appAppleID = payload.appAppleID, apps.bundleIDs.contains(where: { apps.app(bundleID: $0)?.appAppleID == appAppleID })
            else {
                logger.info("retention request rejected", metadata: [LogKey.error: "appAppleId is not a configured app's"])
                throw Self.rejection
            }
        }
        guard let originalTransactionID = payload.originalTransactionID, !originalTransactionID.isEmpty,
            let requestIdentifier = payload.requestIdentifier, !requestIdentifier.isEmpty
        else {
            throw UseCaseError.malformed("the retention request lacks originalTransactionId or requestIdentifier")
        }
        return VerifiedRequest(
            payload: payload, environment: environment, originalTransactionID: originalTransactionID, requestIdentifier: requestIdentifier)
    }

    /// One message for every verification failure: the reason goes to the log only.
    static let rejection = UseCaseError.signatureRejected("the signed payload does not verify for a configured app")

    /// The rules' answer from the stored facts of the request's subscription.
    private func judge(_ request: VerifiedRequest, at time: Date) async throws -> Judged {
        async let catalogRead = catalog.catalog()
        guard
            let (bundleID, account) = try await accounts.account(
                environment: request.environment, originalTransactionID: request.originalTransactionID, now: time)
        else {
            return Judged(bundleID: nil, answer: .appleDefault(.unknownSubscription), ruleIndex: nil)
        }
        let catalog = try await catalogRead
        guard let app = apps.app(bundleID: bundleID) else {
            return Judged(bundleID: bundleID, answer: .appleDefault(.unknownSubscription), ruleIndex: nil)
        }
        if request.environment == .production, app.appAppleID != request.payload.appAppleID {
            // Signed by Apple for another of our apps than the subscription's: show nothing of ours.
            return Judged(bundleID: bundleID, answer: .appleDefault(.unknownSubscription), ruleIndex: nil)
        }
        let rules = app.retentionRules
        guard !rules.isEmpty,
            let subject = subject(request, account: account, catalog: catalog, rules: rules, at: time)
        else {
            return Judged(bundleID: bundleID, answer: .appleDefault(.noMatch), ruleIndex: nil)
        }
        guard let index = rules.index(for: subject) else {
            return Judged(bundleID: bundleID, answer: .appleDefault(.noMatch), ruleIndex: nil)
        }
        let action = rules.rules[index].action
        var signature: String?
        if let offer = action.offer {
            guard let signer = signers[bundleID] else { throw UseCaseError.notConfigured("\(bundleID)'s In-App Purchase key cannot sign") }
            // A signature is a promise: made only for the subscription Apple's signed request names.
            signature = try signer.promotionalOffer(
                productID: offer.productID, offerID: offer.offerID, transactionID: request.originalTransactionID, now: time)
        }
        return Judged(
            bundleID: bundleID, answer: Answer(action: action, promotionalOfferSignature: signature, reason: .matched), ruleIndex: index)
    }

    /// What the rules are judged on, from the account's facts; nil when the subscription has none.
    private func subject(
        _ request: VerifiedRequest, account: AppleAccountRead, catalog: ProductCatalog, rules: RetentionRules, at time: Date
    ) -> RetentionSubject? {
        guard
            let snapshot = account.subscriptions.first(where: {
                $0.environment == request.environment && $0.originalTransactionID == request.originalTransactionID
            })
        else { return nil }
        let newest = account.history.transactions
            .filter { $0.environment == request.environment && $0.originalTransactionID == request.originalTransactionID }
            .max { $0.purchaseDate < $1.purchaseDate }
        let policies = apps.entitlementPolicies
        let eligibility = EligibilityRule.answers(
            for: rules.eligibilityProducts, catalog: catalog, history: account.history.counting(under: policies), now: time,
            policy: eligibilityPolicy)
        let admitted = rules.offers.filter { offer in
            guard let product = catalog.product(offer.productID) else { return false }
            guard let listed = product.promotionalOffers else { return true }
            guard let rule = listed.first(where: { $0.offerID == offer.offerID }) else { return false }
            return rule.admits(product.offerGroup(of: account.subscriptions, policies: policies))
        }
        return RetentionSubject(
            productID: request.payload.productID ?? snapshot.productID, status: snapshot.status, inTrial: snapshot.inTrial,
            storefront: newest?.storefront?.uppercased(), autoRenew: snapshot.autoRenew, eligibility: eligibility,
            admittedOffers: admitted)
    }

    private func record(of judged: Judged, for request: VerifiedRequest, at time: Date) -> RetentionAnswerRecord {
        let action = judged.answer.action
        let kind: RetentionAnswerRecord.Answer =
            switch action?.kind {
            case .message?: .message
            case .alternateProduct?: .alternateProduct
            case .promotionalOffer?: .promotionalOffer
            case nil: .appleDefault
            }
        return RetentionAnswerRecord(
            requestIdentifier: request.requestIdentifier, answeredAt: time, environment: request.environment,
            bundleID: judged.bundleID, originalTransactionID: request.originalTransactionID, productID: request.payload.productID,
            userLocale: request.payload.userLocale, answer: kind, reason: judged.answer.reason, ruleIndex: judged.ruleIndex,
            messageIdentifier: action?.messageIdentifier, offeredProductID: action?.productID, offerID: action?.offer?.offerID)
    }
}
