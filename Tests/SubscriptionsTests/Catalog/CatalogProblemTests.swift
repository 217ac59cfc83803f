import CatalogFiles
import Foundation
import Subscriptions
import Testing

@Suite("catalog problems")
struct CatalogProblemTests {
    @Test("each problem is one line naming the product", arguments: CatalogProblemCase.table)
    func problem(_ row: CatalogProblemCase) {
        let result = CatalogParser.parse(json: Array("{\"products\": [\(row.products.joined(separator: ","))]}".utf8))
        #expect(result.value == nil)
        #expect(result.problemLines == row.lines)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let file = CatalogText.file(
            CatalogText.product(id: "a", type: "subscription", group: nil, period: nil),
            CatalogText.product(id: "b", group: nil, intro: CatalogText.offer(period: "P2D", price: "\"1\"")),
            CatalogText.product(
                id: "c", period: "P1M", intro: CatalogText.offer(mode: "pay_as_you_go", period: "P1W", periods: "0", price: "\"4,99\"")),
            CatalogText.product(id: "ok"),
            CatalogText.product(id: "a", type: "consumable", group: nil, period: nil),
            CatalogText.product(id: nil, bundle: nil)
        )
        let result = CatalogParser.parse(json: file)
        #expect(result.value == nil)
        #expect(
            result.problemLines == [
                "a: unknown type \"subscription\" (expected auto_renewable, non_renewing, consumable or non_consumable)",
                "b: auto_renewable product has no subscription_group_id",
                "b: free trial P2D is shorter than 3 days",
                "b: free trial price 1 must be 0",
                "c: intro offer periods 0 is less than 1",
                "c: intro price \"4,99\" is not a decimal number",
                "c: pay_as_you_go intro period P1W differs from the base period P1M",
                "a: duplicate product id (first at products[0])",
                "products[5]: missing product_id",
                "products[5]: missing bundle_id",
            ])
        if case .failure(let problems) = result {
            #expect(problems.description == problems.lines.joined(separator: "\n"))
        }
    }

    @Test(
        "files that cannot be read at all",
        arguments: [
            ("not json", "catalog: not valid JSON"),
            ("[]", "catalog: expected an object with a \"products\" array"),
            ("{\"items\": []}", "catalog: expected an object with a \"products\" array"),
            ("{\"products\": {}}", "catalog: expected an object with a \"products\" array"),
        ])
    func unreadable(text: String, line: String) {
        #expect(CatalogParser.parse(json: Array(text.utf8)).problemLines == [line])
    }
}
