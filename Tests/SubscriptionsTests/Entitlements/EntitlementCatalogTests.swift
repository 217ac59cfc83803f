import CatalogFiles
import Subscriptions
import Testing

@Suite struct EntitlementCatalogTests {
    private func parse(_ text: String) -> Result<CatalogFile, CatalogProblems> {
        CatalogParser.parse(json: Array(text.utf8))
    }

    private let products = """
        {"product_id": "pro.monthly", "bundle_id": "a", "type": "auto_renewable", "subscription_group_id": "1", "period": "P1M"},
        {"product_id": "pro.lifetime", "bundle_id": "a", "type": "non_consumable"},
        {"product_id": "pass.30days", "bundle_id": "a", "type": "non_renewing", "period": "P30D"},
        {"product_id": "pro.trial", "bundle_id": "a", "type": "non_consumable", "trial_of": "pro", "trial_period": "P14D"}
        """

    @Test func theDesignExampleImports() throws {
        let file = try parse(
            """
            {"entitlements": [{"id": "pro", "product_ids": ["pro.monthly", "pro.lifetime", "pass.30days"]}], "products": [\(products)]}
            """
        ).get()
        #expect(file.entitlements == [Entitlement(id: "pro", productIDs: ["pro.monthly", "pro.lifetime", "pass.30days"])])
        #expect(file.products.first { $0.productID == "pro.trial" }?.trialPeriod == ISO8601Duration("P14D"))
    }

    @Test func aFileWithoutEntitlementsLeavesThemAlone() throws {
        #expect(try parse(#"{"products": []}"#).get().entitlements == nil)
    }

    @Test func everyEntitlementProblemIsOneLine() {
        let result = parse(
            """
            {"entitlements": [{"id": "pro", "product_ids": ["pro.monthly", "nope", "pro.trial", "pro.monthly", "pass.none"]},
                              {"id": "pro", "product_ids": []}, {"product_ids": [3]}],
             "products": [\(products),
                {"product_id": "coins", "bundle_id": "a", "type": "consumable", "period": "P1D"},
                {"product_id": "x.trial", "bundle_id": "a", "type": "non_consumable", "trial_of": "ghost", "trial_period": "P3D"},
                {"product_id": "y.trial", "bundle_id": "a", "type": "consumable", "trial_of": "pro"},
                {"product_id": "pass.none", "bundle_id": "a", "type": "non_renewing"}]}
            """)
        #expect(
            result.problemLines == [
                "coins: period given for a consumable product (only auto_renewable and non_renewing products have one)",
                "y.trial: trial_of given without trial_period",
                "entitlement pro: unknown product nope (not in this file's products)",
                "entitlement pro: lists pro.trial, a trial product: it grants only through its trial_of",
                "entitlement pro: lists pro.monthly twice",
                "entitlement pro: lists pass.none, a non_renewing product without a period (how long each purchase grants)",
                "entitlement pro: duplicate entitlement id (first at entitlements[0])",
                "entitlement entitlements[2]: product_ids[0] must be a product id (a non-empty string)",
                #"x.trial: trial_of "ghost" names no entitlement of this file"#,
            ])
    }
}
