import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Subscriptions
import UseCases

/// `subscriptionctl eligibility APP_USER_ID PRODUCT_ID...`.
struct EligibilityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eligibility",
        abstract: "May this user see each product's introductory offer? Same answer as POST /v1/eligibility.",
        discussion: """
            Answers: eligible, ineligible, no_intro_offer, unknown_product. A user subscriptiond has
            never seen is a new customer (eligible where an offer exists).

            Example:
              subscriptionctl eligibility user-42 com.example.pro.monthly com.example.pro.yearly
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The app's user id (as linked by POST /v1/receipts).")
    var appUserID: String

    @Argument(help: "One or more product ids (at most 100).")
    var productIDs: [String]

    @Option(help: "apple (default; Apple's documented rule) or strict (anyone who ever subscribed in the group is ineligible).")
    var policy: EligibilityPolicy = .apple

    func validate() throws {
        guard !productIDs.isEmpty else { throw ValidationError("give at least one PRODUCT_ID") }
        guard productIDs.count <= EligibilityService.maximumProducts else {
            throw ValidationError("at most \(EligibilityService.maximumProducts) product ids at once")
        }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let service = context.eligibility(policy: policy, logger: options.logger)
            let answers = try await service.answers(appUserID: appUserID, productIDs: productIDs)
            if options.json {
                try Output.json(EligibilityDocument(eligibility: answers.mapValues(\.rawValue)).jsonValue)
                return
            }
            var table = Table("PRODUCT", "ELIGIBILITY")
            for id in productIDs { table.append([id, answers[id]?.rawValue ?? "unknown_product"]) }
            Output.line(table.render())
        }
    }
}

extension EligibilityPolicy: ExpressibleByArgument {}
