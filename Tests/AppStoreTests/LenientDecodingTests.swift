import AppStore
import Foundation
import Testing

@Suite("lenient decoding")
struct LenientDecodingTests {
    private func transaction(_ fields: String) throws -> ReceiptTransaction {
        let body = #"{"transaction_id": "2", "original_transaction_id": "1", "product_id": "p""# + fields + "}"
        return try JSONDecoder().decode(ReceiptTransaction.self, from: Data(body.utf8))
    }

    @Test(
        "booleans in every spelling",
        arguments: [
            ("true", true), ("\"true\"", true), ("\"1\"", true), ("1", true), ("\"TRUE\"", true),
            ("false", false), ("\"false\"", false), ("\"0\"", false), ("0", false),
        ])
    func booleans(literal: String, expected: Bool) throws {
        let t = try transaction(#", "is_trial_period": \#(literal), "is_upgraded": \#(literal)"#)
        #expect(t.isTrialPeriod == expected)
        #expect(t.isUpgraded == expected)
    }

    @Test("unreadable booleans read as absent", arguments: ["2", "\"maybe\"", "{}", "[]", "null"])
    func unreadableBooleans(literal: String) throws {
        let t = try transaction(#", "is_in_intro_offer_period": \#(literal)"#)
        #expect(t.isInIntroOfferPeriod == false)
        let info = try JSONDecoder().decode(PendingRenewalInfo.self, from: Data(#"{"auto_renew_status": \#(literal)}"#.utf8))
        #expect(info.autoRenewStatus == nil)
    }

    @Test(
        "timestamps as numbers or strings",
        arguments: [
            #""expires_date_ms": 1394619485000"#,
            #""expires_date_ms": "1394619485000""#,
            #""expires_date": "1394619485000""#,
            #""expires_date": "2014-03-12 10:18:05 Etc/GMT""#,
            #""expires_date_ms": "1394619485000", "expires_date": "2099-01-01 00:00:00 Etc/GMT""#,
        ])
    func timestamps(fields: String) throws {
        let t = try transaction(", " + fields)
        #expect(t.expiresDate == ms(1_394_619_485_000))
    }

    @Test func numbersAsStringsAndStringsAsNumbers() throws {
        let t = try JSONDecoder().decode(
            ReceiptTransaction.self,
            from: Data(
                #"{"transaction_id": 1000000104232856, "original_transaction_id": "7", "product_id": "p", "quantity": "3", "web_order_line_item_id": 5}"#
                    .utf8
            ))
        #expect(t.transactionID == "1000000104232856")
        #expect(t.quantity == 3)
        #expect(t.webOrderLineItemID == "5")
    }

    @Test func wrongTypesForOptionalFieldsReadAsAbsent() throws {
        let t = try transaction(
            #", "quantity": {"a": 1}, "cancellation_reason": false, "subscription_group_identifier": "", "expires_date_ms": null, "purchase_date": "soon""#
        )
        #expect(t.quantity == nil)
        #expect(t.expiresDate == nil)
        #expect(t.cancellationReason == nil)
        #expect(t.subscriptionGroupIdentifier == nil)
        #expect(t.purchaseDate == nil)
    }

    /// A date field that is present must hold a date the App Store could have written:
    /// otherwise the document is malformed, naming the field (never quoting the value).
    @Test(
        "malformed dates are refused, naming the field",
        arguments: [
            #""expires_date_ms": "100000000000000000000""#, #""expires_date_ms": 1e20"#, #""expires_date_ms": -1"#,
            #""expires_date_ms": "-1""#, #""expires_date_ms": "1.5""#, #""expires_date_ms": 1500000000000.5"#,
            #""expires_date_ms": "0x10""#, #""expires_date_ms": "soon""#, #""expires_date_ms": [1]"#,
            #""expires_date_ms": true"#, #""expires_date_ms": "99999999999999999999999""#, #""expires_date_ms": 1000"#,
            #""expires_date_ms": "253402300800000""#, #""expires_date": "1e400""#, #""expires_date": "2006-12-31 23:59:59 Etc/GMT""#,
        ])
    func malformedDates(_ field: String) throws {
        #expect {
            try transaction(", " + field)
        } throws: { error in
            (error as? AppleValueError)?.field == (field.hasPrefix(#""expires_date_ms""#) ? "expires_date_ms" : "expires_date")
        }
    }

    /// An empty string says "no date": absent, so an authenticated body carrying one (a v1
    /// `auto_renew_status_change_date_ms: ""`) is taken rather than refused and lost.
    @Test("empty date strings read as absent", arguments: [#""expires_date_ms": """#, #""expires_date_ms": " ""#, #""expires_date": """#])
    func emptyDatesAreAbsent(_ field: String) throws {
        #expect(try transaction(", " + field).expiresDate == nil)
    }

    @Test func anEmptyAutoRenewChangeDateLeavesTheNotificationValid() throws {
        let body =
            #"{"notification_type": "DID_CHANGE_RENEWAL_STATUS", "environment": "PROD", "auto_renew_status_change_date_ms": "", "auto_renew_status": "false"}"#
        let notification = try NotificationV1.decode(from: Array(body.utf8))
        #expect(notification.autoRenewStatusChangeDate == nil)
        #expect(notification.notificationType == .didChangeRenewalStatus)
    }

    @Test func datesAtTheEdgesOfTheRangeAreKept() throws {
        let t = try transaction(
            #", "purchase_date_ms": "1167609600000", "expires_date_ms": 253402300799999, "cancellation_date": "2014-03-12 10:18:05 Etc/GMT", "original_purchase_date": "2014-03-12 02:18:05 America/Los_Angeles""#
        )
        #expect(t.purchaseDate == Date(timeIntervalSince1970: 1_167_609_600))
        #expect(t.expiresDate == Date(timeIntervalSince1970: 253_402_300_799.999))
        #expect(t.cancellationDate != nil)
        #expect(t.originalPurchaseDate == nil, "a _pst-style text in a fallback field reads as absent")
    }

    @Test func aMalformedDateInsideAnArrayFailsTheDocument() {
        let body = #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p", "expires_date_ms": "1e400"}]}"#
        #expect {
            try VerifyReceiptResponse.decode(from: Array(body.utf8))
        } throws: { error in
            (error as? AppleValueError)?.field == "latest_receipt_info.0.expires_date_ms"
        }
    }

    @Test func unknownFieldsAreIgnored() throws {
        let t = try transaction(#", "brand_new_field": {"x": [1, 2]}, "unique_identifier": "abc""#)
        #expect(t.productID == "p")
    }

    @Test func aTransactionNeedsAnIdAndAProduct() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReceiptTransaction.self, from: Data(#"{"product_id": "p"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReceiptTransaction.self, from: Data(#"{"transaction_id": "1"}"#.utf8))
        }
    }

    @Test func undecodableArrayEntriesAreSkipped() throws {
        let body =
            #"{"status": 0, "latest_receipt_info": [{"transaction_id": "1", "product_id": "p"}, 42, {"product_id": "no id"}], "pending_renewal_info": [{"original_transaction_id": 9}, "x"]}"#
        let r = try VerifyReceiptResponse.decode(from: json(body))
        #expect(r.latestReceiptInfo.map(\.transactionID) == ["1"])
        #expect(r.pendingRenewalInfo.map(\.originalTransactionID) == ["9"])
    }

    @Test func aVerifyBodyNeedsAStatus() {
        #expect(throws: DecodingError.self) { try VerifyReceiptResponse.decode(from: json(#"{"environment": "Sandbox"}"#)) }
        #expect(throws: DecodingError.self) { try VerifyReceiptResponse.decode(from: json("[]")) }
    }
}
