import ArgumentParser
import CatalogFiles
import Composition
import Foundation
import Store
import Subscriptions
import UseCases

/// `subscriptionctl products import FILE` / `products list`.
struct ProductsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Load or show the product catalog.",
        subcommands: [ProductsImportCommand.self, ProductsListCommand.self]
    )
}

/// `subscriptionctl products import FILE`.
struct ProductsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a catalog file (JSON, or CSV with the same columns) atomically.",
        discussion: """
            The file replaces the catalog of every app (bundle id) it names; other apps' products stay.
            Its "entitlements", when present, replace every stored entitlement (they are catalog-wide);
            a file without them (and every CSV file) leaves them alone.
            A file that breaks Apple's rules or the entitlements' changes nothing: each problem is
            printed on its own line with the product or entitlement id, and the command exits 1.

            JSON format (DESIGN.md):
              {"entitlements":[{"id":"pro","product_ids":["com.example.pro.monthly","com.example.pro.lifetime"]}],
               "products":[{"product_id":"com.example.pro.monthly","bundle_id":"com.example.app",
                "type":"auto_renewable","subscription_group_id":"20500000","period":"P1M",
                "intro_offer":{"payment_mode":"free_trial","period":"P1W","periods":1,"price":"0.00"}},
                {"product_id":"com.example.pro.lifetime","bundle_id":"com.example.app","type":"non_consumable"},
                {"product_id":"com.example.pass.30days","bundle_id":"com.example.app","type":"non_renewing","period":"P30D"},
                {"product_id":"com.example.trial","bundle_id":"com.example.app","type":"non_consumable",
                 "trial_of":"pro","trial_period":"P14D"}]}
            CSV header: product_id,bundle_id,type,subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price

            Example:
              subscriptionctl products import catalog.json
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The catalog file (.json or .csv).")
    var file: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            Output.error("subscriptionctl: cannot read \(file)")
            throw ExitCode(2)
        }
        let catalog: CatalogFile
        switch CatalogParser.parse(Array(data), fileName: file) {
        case .success(let parsed):
            catalog = parsed
        case .failure(let problems):
            problems.lines.forEach { Output.error($0) }
            Output.error(
                "subscriptionctl: \(file) has \(problems.lines.count) problem\(problems.lines.count == 1 ? "" : "s"); nothing was imported")
            throw ExitCode(1)
        }
        try await CommandExecution.withDatabase(options) { context in
            let result = try await context.products.replace(with: catalog.products, entitlements: catalog.entitlements)
            let entitlements = catalog.entitlements?.count
            if options.json {
                var counts = ["imported": result.written, "removed": result.removed]
                counts["entitlements"] = entitlements
                try Output.json(counts)
            } else {
                Output.line(
                    "imported \(result.written) product\(result.written == 1 ? "" : "s") (\(result.removed) removed)"
                        + (entitlements.map { ", \($0) entitlement\($0 == 1 ? "" : "s")" } ?? ""))
            }
        }
    }
}

/// `subscriptionctl products list`.
struct ProductsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the product catalog.",
        discussion: """
            Example:
              subscriptionctl products list
              subscriptionctl products list --json > catalog.json   # re-importable
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let catalog = try await context.products.catalog()
            if options.json {
                try Output.json(CatalogListing(entitlements: catalog.entitlements, products: catalog.products))
                return
            }
            guard !catalog.products.isEmpty else {
                Output.line("no products: load a catalog with `subscriptionctl products import FILE`")
                return
            }
            var table = Table("PRODUCT", "GROUP", "TYPE", "PERIOD", "INTRO OFFER", "ENTITLEMENTS", "APP")
            for product in catalog.products {
                let grants =
                    catalog.entitlements.filter { $0.productIDs.contains(product.productID) }.map(\.id)
                    + (product.trialOf.map { ["\($0) (trial \(product.trialPeriod?.description ?? "?"))"] } ?? [])
                table.append([
                    product.productID, product.subscriptionGroupID ?? "-", product.type.rawValue,
                    product.period?.description ?? "-", product.introOffer.map(Self.describe) ?? "-",
                    grants.isEmpty ? "-" : grants.joined(separator: ", "), product.bundleID,
                ])
            }
            Output.line(table.render())
            if catalog.entitlements.isEmpty {
                Output.line("")
                Output.line("no entitlements: add an \"entitlements\" list to the catalog file")
            }
        }
    }

    static func describe(_ offer: IntroOffer) -> String {
        switch offer.paymentMode {
        case .freeTrial: return "free trial \(offer.period)"
        case .payUpFront: return "\(offer.price) up front for \(offer.period)"
        case .payAsYouGo: return "\(offer.price) × \(offer.periods) \(offer.period)"
        }
    }
}

/// `products list --json`: the catalog file's shape, so it imports again.
struct CatalogListing: Encodable {
    let entitlements: [Entitlement]
    let products: [Product]
}
