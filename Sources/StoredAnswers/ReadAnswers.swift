import Access
import ContractDocuments
import Crypto
import Foundation
import Logging
import Postgres
import ServiceSupport
import Store
import Subscriptions

/// The read endpoints' answers: the stored answer while it is current, else computed from
/// the facts and stored for the next read (docs/read-answers.md).
///
/// A stored answer is the same bytes the computation gives at the time of the read: it is
/// served only while no fact, link or catalog entry it came from has changed and no period
/// or grace period it describes has ended.
public struct ReadAnswers: Sendable {
    /// Where an answer came from, for the metrics.
    public enum Origin: String, Sendable {
        /// A current stored answer.
        case stored
        /// Computed from the facts (and stored for the next read).
        case computed
    }

    /// What the stored answers of this release hold. Raise it with any change to the
    /// subscription, subscriber or entitlements documents or to `GroupUsage` (the test
    /// `storedFormatIsPinned` fails until you do): answers stored by a release with another
    /// format are then computed again rather than served.
    public static let format: Int32 = 7

    /// The number stored answers carry as their format: `format`, the apps' entitlement
    /// policies and the settings proceeds are estimated under folded together, so that neither
    /// a release that changes the documents nor a configuration that changes who is entitled
    /// (`grandfather`, `sandbox_entitlement`) or what a purchase brings (`tax_rates`,
    /// `small_business_program`) serves the answers of the one before. The catalog, which
    /// prices v1 purchases, is in every answer's stamp already.
    public static func storedFormat(policies: EntitlementPolicies, pricing: PurchasePricing = PurchasePricing()) -> Int32 {
        guard !policies.fingerprint.isEmpty || !pricing.fingerprint.isEmpty else { return format }
        // `format` is part of the text: a release that raises it does not serve what an older
        // one stored under the same settings.
        let text = "\(format)\n\(policies.fingerprint)\n\(pricing.fingerprint)"
        let digest = SHA256.hash(data: Array(text.utf8))
        let folded = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // Never `format` itself, which names the standard policies.
        return Int32(bitPattern: folded & 0x7FFF_FFFF) | 0x4000_0000
    }

    /// Where reads go: the primary's, which is also where answers are stored.
    let reader: SubscriptionReader
    let store: AnswerStore
    /// The apps' entitlement policies answers are judged under.
    public let policies: EntitlementPolicies
    /// What prices purchases and estimates their proceeds.
    public let pricing: PurchasePricing
    private let writer: AnswerWriter?
    /// The read replica's, for the reads that may be a little behind (`DATABASE_READ_URL`).
    private let replica: ReplicaSource?
    private let logger: Logger

    /// A database the reads can come from: its stored-answer lookups and its facts.
    private struct Source: Sendable {
        let store: AnswerStore
        let reader: SubscriptionReader
    }

    /// The replica's source and the route that says when to use it.
    private struct ReplicaSource: Sendable {
        let source: Source
        let route: ReplicaRoute
    }

    /// Creates the service, entitlements judged under the apps' `policies`, purchases priced
    /// under `pricing`. Each read stores the answer it computed before it returns (for
    /// `subscriptionctl` and tests); `writingInBackground(configuration:onOutcome:)` gives one
    /// that hands them to a writer instead.
    public init(
        database: PostgresClient, policies: EntitlementPolicies = EntitlementPolicies(), pricing: PurchasePricing = PurchasePricing(),
        logger: Logger
    ) {
        self.init(
            store: AnswerStore(client: database, format: Self.storedFormat(policies: policies, pricing: pricing)),
            reader: SubscriptionReader(client: database),
            policies: policies, pricing: pricing, writer: nil, replica: nil, logger: logger)
    }

    private init(
        store: AnswerStore, reader: SubscriptionReader, policies: EntitlementPolicies, pricing: PurchasePricing, writer: AnswerWriter?,
        replica: ReplicaSource?, logger: Logger
    ) {
        self.reader = reader
        self.store = store
        self.policies = policies
        self.pricing = pricing
        self.writer = writer
        self.replica = replica
        self.logger = logger
    }

    /// The same service, with the reads of the `/v1` GET routes and eligibility sent to
    /// `replica` while `route` says it is fresh enough. Answers computed there are stored on
    /// the primary with the version the replica saw, so one computed from older facts is
    /// stored unserved; what follows the caller's own write (`subscriberBodyEvenIfUnknown`)
    /// is always read on the primary.
    public func reading(from replica: PostgresClient, route: ReplicaRoute) -> ReadAnswers {
        let source = Source(store: AnswerStore(client: replica, format: store.format), reader: SubscriptionReader(client: replica))
        return ReadAnswers(
            store: store, reader: reader, policies: policies, pricing: pricing, writer: writer,
            replica: ReplicaSource(source: source, route: route),
            logger: logger)
    }

    /// The same service reading only the primary: for the answers that follow the caller's
    /// own write (read-your-writes), which a replica may not have yet.
    public var followingWrites: ReadAnswers {
        ReadAnswers(store: store, reader: reader, policies: policies, pricing: pricing, writer: writer, replica: nil, logger: logger)
    }

    /// The primary's lookups and facts.
    private var primary: Source { Source(store: store, reader: reader) }

    /// Where this read goes: the replica while its route says so, else the primary.
    private func readSource() -> Source {
        if let replica, replica.route.choose() == .replica { return replica.source }
        return primary
    }

    /// The same service, with computed answers stored off the request by the writer it
    /// returns (the server's, which closes and flushes that writer on shutdown).
    public func writingInBackground(
        configuration: AnswerWriter.Configuration = .init(),
        onOutcome: @escaping @Sendable (AnswerWriter.Outcome, Int) -> Void = { _, _ in }
    ) -> (answers: ReadAnswers, writer: AnswerWriter) {
        let writer = AnswerWriter(store: store, configuration: configuration, logger: logger, onOutcome: onOutcome)
        return (
            ReadAnswers(
                store: store, reader: reader, policies: policies, pricing: pricing, writer: writer, replica: replica, logger: logger),
            writer
        )
    }

    /// The `GET /v1/subscriptions/{id}` body, or nil when there is no such subscription.
    public func subscriptionBody(originalTransactionID id: String, now: Date = Date()) async throws -> (body: String, origin: Origin)? {
        let source = readSource()
        let stamp: AnswerStamp
        switch try await source.store.subscriptionLookup(originalTransactionID: id, now: now) {
        case .current(let body): return (body, .stored)
        case .stale(let found): stamp = found
        }
        guard let read = try await source.reader.subscriptionRead(originalTransactionID: id, now: now) else { return nil }
        let catalog = try await source.store.catalog(generation: stamp.catalogGeneration)
        let answer = Self.answer(originalTransactionID: id, read, catalog: catalog, pricing: pricing, stamp: stamp)
        await keep(answer)
        return (answer.body, .computed)
    }

    /// The `GET /v1/subscribers/{id}` body, or nil when the user is unknown.
    public func subscriberBody(appUserID: String, now: Date = Date()) async throws -> (body: String, origin: Origin)? {
        let source = readSource()
        switch try await source.store.subscriberLookup(appUserID: appUserID, now: now) {
        case .current(let body): return (body, .stored)
        case .stale(let stamp):
            return try await computedSubscriber(appUserID: appUserID, stamp: stamp, now: now, from: source).map { ($0.body, .computed) }
        }
    }

    /// The subscriber body as a principal that sees only `apps` is shown it: the stored
    /// answer for every app; for some, computed from the facts of those apps (and the user's
    /// grants) and stored nowhere. Nil when the user is unknown, or nothing of theirs is visible.
    public func subscriberBody(
        appUserID: String, visibleTo apps: AppScope, now: Date = Date()
    ) async throws -> (body: String, origin: Origin)? {
        guard case .only(let bundleIDs) = apps else { return try await subscriberBody(appUserID: appUserID, now: now) }
        return try await restrictedSubscriber(appUserID: appUserID, to: bundleIDs, now: now).map {
            (String(decoding: ContractJSONWriter.bytes(of: $0), as: UTF8.self), .computed)
        }
    }

    /// The entitlements body as a principal that sees only `apps` is shown it: entitlements
    /// from those apps' purchases and the user's grants.
    public func entitlementsBody(
        appUserID: String, visibleTo apps: AppScope, now: Date = Date()
    ) async throws -> (body: String, origin: Origin)? {
        guard case .only(let bundleIDs) = apps else { return try await entitlementsBody(appUserID: appUserID, now: now) }
        return try await restrictedSubscriber(appUserID: appUserID, to: bundleIDs, now: now).map {
            (String(decoding: ContractJSONWriter.bytes(of: $0.entitlementsDocument), as: UTF8.self), .computed)
        }
    }

    /// The subscription body when its app is among `apps`; nil when it is unknown or not visible.
    public func subscriptionBody(
        originalTransactionID id: String, visibleTo apps: AppScope, now: Date = Date()
    ) async throws -> (
        body: String, origin: Origin
    )? {
        guard case .only(let bundleIDs) = apps else { return try await subscriptionBody(originalTransactionID: id, now: now) }
        let source = readSource()
        guard let read = try await source.reader.subscriptionRead(originalTransactionID: id, now: now),
            bundleIDs.contains(read.view.snapshot.bundleID)
        else { return nil }
        let catalog = try await source.store.catalog(generation: try await source.store.currentCatalogGeneration())
        let document = SubscriptionDocument(read.view, includeTransactions: true, pricing: pricing, catalog: catalog)
        return (String(decoding: ContractJSONWriter.bytes(of: document), as: UTF8.self), .computed)
    }

    private func restrictedSubscriber(appUserID: String, to bundleIDs: Set<String>, now: Date) async throws -> SubscriberDocument? {
        let source = readSource()
        guard let read = try await source.reader.subscriberRead(appUserID: appUserID, now: now)?.restricted(to: bundleIDs), !read.isEmpty
        else { return nil }
        let catalog = try await source.store.catalog(generation: try await source.store.currentCatalogGeneration())
        return SubscriberDocument(appUserID: appUserID, read: read, catalog: catalog, policies: policies, pricing: pricing, now: now)
    }

    /// The product catalog as it is now, read once per catalog generation (an import makes a new one).
    public func catalog() async throws -> ProductCatalog {
        try await store.catalog(generation: try await store.currentCatalogGeneration())
    }

    /// The subscriber document computed from the facts now, stored nowhere (`subscriptionctl
    /// subscriber show`), or nil when the user is unknown.
    public func subscriberDocument(appUserID: String, now: Date = Date()) async throws -> SubscriberDocument? {
        guard let read = try await reader.subscriberRead(appUserID: appUserID, now: now) else { return nil }
        let catalog = try await store.catalog(generation: try await store.currentCatalogGeneration())
        return SubscriberDocument(appUserID: appUserID, read: read, catalog: catalog, policies: policies, pricing: pricing, now: now)
    }

    /// The `GET /v1/subscribers/{id}` body, also for a user nothing is known of (no
    /// subscription, purchase or grant; every entitlement inactive): what recording a
    /// purchase answers, even when Apple's answer held nothing to link.
    public func subscriberBodyEvenIfUnknown(appUserID: String, now: Date = Date()) async throws -> String {
        let stamp: AnswerStamp
        switch try await store.subscriberLookup(appUserID: appUserID, now: now) {
        case .current(let body): return body
        case .stale(let found): stamp = found
        }
        if let known = try await computedSubscriber(appUserID: appUserID, stamp: stamp, now: now, from: primary) { return known.body }
        let catalog = try await store.catalog(generation: stamp.catalogGeneration)
        let document = SubscriberDocument(
            appUserID: appUserID, read: .unknown, catalog: catalog, policies: policies, pricing: pricing, now: now)
        return String(decoding: ContractJSONWriter.bytes(of: document), as: UTF8.self)
    }

    /// The `GET /v1/subscribers/{id}/entitlements` body, or nil when the user is unknown: kept
    /// beside the subscriber body, current under the same rule.
    public func entitlementsBody(appUserID: String, now: Date = Date()) async throws -> (body: String, origin: Origin)? {
        let source = readSource()
        switch try await source.store.entitlementsLookup(appUserID: appUserID, now: now) {
        case .current(let body): return (body, .stored)
        case .stale(let stamp):
            return try await computedSubscriber(appUserID: appUserID, stamp: stamp, now: now, from: source).map {
                ($0.entitlementsBody, .computed)
            }
        }
    }

    /// The subscriber answer computed from the facts, kept for the next read when storable;
    /// nil when the user is unknown.
    private func computedSubscriber(appUserID: String, stamp: AnswerStamp, now: Date, from source: Source) async throws -> SubscriberAnswer?
    {
        guard let read = try await source.reader.subscriberRead(appUserID: appUserID, now: now) else { return nil }
        let catalog = try await source.store.catalog(generation: stamp.catalogGeneration)
        let answer = Self.answer(appUserID: appUserID, read, catalog: catalog, policies: policies, pricing: pricing, stamp: stamp, now: now)
        if read.isStorable { await keep(answer) }
        return answer
    }

    /// The user's history summarised per subscription group and the product catalog, for an
    /// eligibility question; a new customer has no history.
    public func eligibilityFacts(
        appUserID: String, now: Date = Date()
    ) async throws -> (usage: GroupUsage, catalog: ProductCatalog, origin: Origin) {
        let source = readSource()
        switch try await source.store.eligibilityFacts(appUserID: appUserID, now: now) {
        case .stored(let usage, let catalog):
            return (usage, catalog, .stored)
        case .newCustomer(let catalog):
            return (GroupUsage.none, catalog, .computed)
        case .notStored(let catalog, let stamp):
            guard let read = try await source.reader.subscriberRead(appUserID: appUserID, now: now) else {
                return (GroupUsage.none, catalog, .computed)
            }
            guard read.isStorable else { return (read.usage(under: policies, at: now), catalog, .computed) }
            // The answer kept for the next read carries the same usage: summarised once.
            let answer = Self.answer(
                appUserID: appUserID, read, catalog: catalog, policies: policies, pricing: pricing, stamp: stamp, now: now)
            await keep(answer)
            return (answer.usage, catalog, .computed)
        }
    }

    static func answer(
        originalTransactionID id: String, _ read: SubscriptionRead, catalog: ProductCatalog, pricing: PurchasePricing, stamp: AnswerStamp
    ) -> SubscriptionAnswer {
        let body = ContractJSONWriter.bytes(
            of: SubscriptionDocument(read.view, includeTransactions: true, pricing: pricing, catalog: catalog))
        return SubscriptionAnswer(
            originalTransactionID: id, body: String(decoding: body, as: UTF8.self), stamp: stamp, validUntil: read.validUntil)
    }

    /// The subscriber and entitlements bodies of a read, valid until the first status change
    /// or end of an entitlement's source after `now`.
    static func answer(
        appUserID: String, _ read: SubscriberRead, catalog: ProductCatalog, policies: EntitlementPolicies, pricing: PurchasePricing,
        stamp: AnswerStamp, now: Date
    ) -> SubscriberAnswer {
        let document = SubscriberDocument(
            appUserID: appUserID, read: read, catalog: catalog, policies: policies, pricing: pricing, now: now)
        let body = ContractJSONWriter.bytes(of: document)
        let entitlements = ContractJSONWriter.bytes(of: document.entitlementsDocument)
        let validUntil = [read.validUntil, document.entitlementsNextChange].compactMap { $0 }.min()
        return SubscriberAnswer(
            appUserID: appUserID, body: String(decoding: body, as: UTF8.self),
            entitlementsBody: String(decoding: entitlements, as: UTF8.self),
            usage: read.usage(under: policies, at: now), stamp: stamp, validUntil: validUntil)
    }

    /// Stores an answer for the next read, or hands it to the writer; a failure (a lock held
    /// too long by a notification being applied, the database gone) costs the next read its
    /// shortcut, never this answer.
    private func keep(_ answer: SubscriptionAnswer) async {
        if let writer { writer.submit(answer) } else { await keep { try await store.store([answer]) } }
    }

    private func keep(_ answer: SubscriberAnswer) async {
        if let writer { writer.submit(answer) } else { await keep { try await store.store([answer]) } }
    }

    private func keep(_ write: () async throws -> Void) async {
        do {
            try await write()
        } catch {
            logger.debug("read answer not stored", metadata: [LogKey.error: "\(error)"])
        }
    }
}
