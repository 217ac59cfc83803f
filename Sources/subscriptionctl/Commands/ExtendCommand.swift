import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation
import Settings
import Store
import UseCases

/// `subscriptionctl extend ORIGINAL_TRANSACTION_ID --days N [--reason R]` and
/// `extend --mass --product P --days N [--storefront CC,...]`.
struct ExtendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extend",
        abstract: "Extend a subscription's renewal date, or every active subscriber's of a product.",
        discussion: """
            Asks Apple (App Store Server API) to move the renewal date later by 1 to 90 days, \
            to make up for an outage or a cancelled event. Apple extends only paid, active \
            periods, at most twice a year per subscription (exit 1 with Apple's reason \
            otherwise). Reasons: 0 undeclared, 1 customer satisfaction, 2 other, 3 service \
            issue or outage.

            Each request is stored with its identifier before it is sent. Stopped by Ctrl-C, \
            a crash or Apple being away, the same command run again sends the same identifier \
            (Apple extends once per identifier) or keeps waiting for a mass request; \
            --request-id fixes the identifier yourself (a finished request is shown, not sent \
            again). One subscription is applied at once from what Apple says now; Apple's \
            RENEWAL_EXTENDED notifications, applied by a running subscriptiond, bring each \
            mass-extended subscription, and the RENEWAL_EXTENSION summary closes the request.

            Examples:
              subscriptionctl extend 2000001024993299 --days 7 --reason 3
              subscriptionctl extend --mass --product com.example.pro.monthly --days 3 --reason 3
              subscriptionctl extend --mass --product com.example.pro.monthly --days 3 --storefront USA,CAN
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The subscription's original transaction id (not with --mass).", valueName: "original-transaction-id"))
    var originalTransactionID: String?

    @Flag(help: "Extend every active subscriber of --product.")
    var mass = false

    @Option(help: ArgumentHelp("The product whose active subscribers are extended (with --mass).", valueName: "product-id"))
    var product: String?

    @Option(help: ArgumentHelp("Only subscribers of these storefronts (ISO alpha-3, comma-separated; with --mass).", valueName: "CC,..."))
    var storefront: String?

    @Option(help: "Days to extend by, 1 to 90.")
    var days: Int

    @Option(help: "Apple's reason code: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.")
    var reason = 0

    @Option(help: "Production or Sandbox (with --mass; one subscription is found in either).")
    var environment = "Production"

    @Option(help: "The app's bundle id (needed when several apps have an API key).")
    var app: String?

    @Option(
        help: ArgumentHelp("The request identifier to use (a UUID; default: a new one, or the unfinished request's).", valueName: "uuid"))
    var requestID: String?

    @Option(help: "Seconds between status questions while Apple works through a mass request.")
    var pollInterval = 30

    @Option(help: "Seconds to wait for a mass request before leaving it open (run again to resume).")
    var waitLimit = 3_600

    func validate() throws {
        if mass {
            guard originalTransactionID == nil else { throw ValidationError("--mass extends a product's subscribers: leave out the id") }
            guard let product, !product.isEmpty else { throw ValidationError("--mass needs --product") }
        } else {
            guard let id = originalTransactionID, !id.isEmpty, id.count <= 64, id.allSatisfy(\.isNumber) else {
                throw ValidationError("name the subscription's original transaction id (digits), or use --mass --product")
            }
            guard product == nil, storefront == nil else { throw ValidationError("--product and --storefront go with --mass") }
        }
        guard (1...90).contains(days) else { throw ValidationError("--days is 1 to 90") }
        guard (0...3).contains(reason) else { throw ValidationError("--reason is 0 to 3") }
        if let requestID, UUID(uuidString: requestID) == nil { throw ValidationError("--request-id must be a UUID") }
        guard (1...3_600).contains(pollInterval) else { throw ValidationError("--poll-interval is 1 to 3600 seconds") }
        guard (0...604_800).contains(waitLimit) else { throw ValidationError("--wait-limit is 0 to 604800 seconds") }
        _ = try storefronts()
    }

    /// `--storefront` as codes, or nil for all.
    private func storefronts() throws -> [String]? {
        guard let storefront else { return nil }
        let codes = storefront.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for code in codes where code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            throw ValidationError("--storefront takes ISO 3166-1 alpha-3 codes like USA,CAN; '\(code)' is not one")
        }
        return codes
    }

    func run() async throws {
        let environment = try EnvironmentOption.parse(self.environment)
        let identifier = requestID.flatMap(UUID.init(uuidString:))
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let extensions = context.renewalExtensions(api: session.directory, evidence: session.evidence, apps: session.settings.apps)
                let (request, resumed) = try await ManualChange.refusing {
                    if let originalTransactionID {
                        return try await extensions.extend(
                            originalTransactionID: originalTransactionID, days: days, reasonCode: reason, bundleID: app,
                            requestIdentifier: identifier, logger: session.logger)
                    }
                    return try await extensions.extendAll(
                        productID: product ?? "", storefronts: try storefronts(), environment: environment, days: days, reasonCode: reason,
                        bundleID: app, requestIdentifier: identifier,
                        polling: .init(interval: .seconds(pollInterval), limit: .seconds(waitLimit)), logger: session.logger
                    ) { request, status in
                        guard !options.json else { return }
                        if let status {
                            Output.line(
                                "  in progress: \(status.succeededCount ?? 0) extended, \(status.failedCount ?? 0) failed so far")
                        } else if request.state == .accepted {
                            Output.line("request \(Self.id(request)) accepted by Apple; waiting for it to finish")
                        }
                    }
                }
                try Self.report(request, resumed: resumed, json: options.json)
            }
        }
    }

    private static func id(_ request: RenewalExtension) -> String {
        request.requestIdentifier.uuidString.lowercased()
    }

    private static func report(_ request: RenewalExtension, resumed: Bool, json: Bool) throws {
        if json {
            try Output.json(RenewalExtensionDocument(request: request, resumed: resumed))
            return
        }
        let environment = request.environment.map { " (\($0.rawValue))" } ?? ""
        switch (request.target, request.state) {
        case (.subscription(let original), .complete):
            Output.line(
                "\(resumed ? "request \(id(request)) was already done: " : "")extended \(original) by \(request.days) days\(environment)"
                    + (request.effectiveDate.map { ": now renews \(TimeText.utc($0))" } ?? "") + "; request \(id(request))")
        case (.product(let product, _), .complete):
            Output.line(
                "\(resumed ? "request \(id(request)): " : "")extended the active subscribers of \(product) by \(request.days) days"
                    + "\(environment): \(request.succeededCount ?? 0) extended, \(request.failedCount ?? 0) failed; request \(id(request))")
        case (_, .failed):
            throw CommandFailure.refused("request \(id(request)) failed: \(request.lastError ?? "Apple refused it")")
        default:
            throw CommandFailure.refused("request \(id(request)) is still \(request.state.rawValue); run the same command again")
        }
    }
}

/// `extend --json`: `{"request_identifier","bundle_id","environment","original_transaction_id"?, "product_id"?,
/// "storefronts"?, "days","reason_code","state","effective_date","succeeded_count","failed_count","resumed"}`.
struct RenewalExtensionDocument: Encodable {
    let request: RenewalExtension
    let resumed: Bool

    enum CodingKeys: String, CodingKey {
        case requestIdentifier = "request_identifier", bundleID = "bundle_id", environment
        case originalTransactionID = "original_transaction_id", productID = "product_id", storefronts, days
        case reasonCode = "reason_code", state, effectiveDate = "effective_date", succeededCount = "succeeded_count"
        case failedCount = "failed_count", resumed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request.requestIdentifier.uuidString.lowercased(), forKey: .requestIdentifier)
        try container.encode(request.bundleID, forKey: .bundleID)
        try container.encode(request.environment?.rawValue, forKey: .environment)
        switch request.target {
        case .subscription(let original):
            try container.encode(original, forKey: .originalTransactionID)
        case .product(let product, let storefronts):
            try container.encode(product, forKey: .productID)
            try container.encode(storefronts, forKey: .storefronts)
        }
        try container.encode(request.days, forKey: .days)
        try container.encode(request.reasonCode, forKey: .reasonCode)
        try container.encode(request.state.rawValue, forKey: .state)
        try container.encode(request.effectiveDate, forKey: .effectiveDate)
        try container.encode(request.succeededCount, forKey: .succeededCount)
        try container.encode(request.failedCount, forKey: .failedCount)
        try container.encode(resumed, forKey: .resumed)
    }
}
