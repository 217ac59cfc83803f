import Foundation
import Testing

@testable import AppStore

@Suite("Apple's blanks are trimmed as Foundation's CharacterSet.whitespaces trims them")
struct AppleWhitespaceTests {
    /// Blanks (tab, space, no-break, thin, ideographic, zero-width), characters Foundation
    /// keeps (newline, return, zero-width joiner, a combining mark) and ordinary ones.
    static let alphabet: [Unicode.Scalar] = [
        "\t", " ", "\u{A0}", "\u{2009}", "\u{3000}", "\u{200B}", "\n", "\r", "\u{200D}", "\u{301}", "1", "a", "-",
    ]

    @Test("the same result as trimmingCharacters(in: .whitespaces) for every string of up to 4 of those scalars")
    func agreesWithFoundation() {
        var strings: [String.UnicodeScalarView] = [String.UnicodeScalarView()]
        var previous = strings
        for _ in 1...4 {
            previous = previous.flatMap { prefix in
                Self.alphabet.map {
                    var next = prefix
                    next.append($0)
                    return next
                }
            }
            strings += previous
        }
        #expect(strings.count == 30_941)
        for scalars in strings {
            let string = String(scalars)
            let expected = string.trimmingCharacters(in: .whitespaces)
            #expect(String(AppleWhitespace.trimmed(string)) == expected, "\(Array(scalars))")
            #expect(AppleWhitespace.isBlank(string) == expected.isEmpty, "\(Array(scalars))")
        }
    }

    @Test("padded values read as their content; blank ones as absent")
    func paddedValues() throws {
        let body =
            #"{"transaction_id": "\t2 ", "original_transaction_id": "1", "product_id": "p", "web_order_line_item_id": "\u3000", "quantity": " 3 ", "is_trial_period": " true\t", "expires_date_ms": " 1795372543000 "}"#
        let transaction = try JSONDecoder().decode(ReceiptTransaction.self, from: Data(body.utf8))
        #expect(transaction.transactionID == "\t2 ")
        #expect(transaction.webOrderLineItemID == nil)
        #expect(transaction.quantity == 3)
        #expect(transaction.isTrialPeriod == true)
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_795_372_543))
    }
}
