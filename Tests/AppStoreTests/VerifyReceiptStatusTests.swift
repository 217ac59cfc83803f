import AppStore
import Testing

@Suite("verifyReceipt status table")
struct VerifyReceiptStatusTests {
    @Test("applied statuses", arguments: [0, 21006])
    func applied(status: Int) {
        #expect(VerifyReceiptStatus.classify(status: status, isRetryable: nil) == .apply)
    }

    @Test func environmentRedirects() {
        #expect(VerifyReceiptStatus.classify(status: 21007, isRetryable: nil) == .resendToSandbox)
        #expect(VerifyReceiptStatus.classify(status: 21008, isRetryable: nil) == .resendToProduction)
    }

    @Test func malformedDataIsRetriedAFewTimes() {
        let outcome = VerifyReceiptStatus.classify(status: 21002, isRetryable: nil)
        guard case .retryFewTimes(let reason) = outcome else {
            Issue.record("21002 gave \(outcome)")
            return
        }
        #expect(reason.hasPrefix("21002: "))
    }

    @Test("temporary statuses", arguments: [21005, 21009])
    func retried(status: Int) {
        let outcome = VerifyReceiptStatus.classify(status: status, isRetryable: false)
        guard case .retry(let reason) = outcome else {
            Issue.record("\(status) gave \(outcome)")
            return
        }
        #expect(reason.hasPrefix("\(status): "))
    }

    @Test("permanent statuses", arguments: [21000, 21003, 21004, 21010, 21001, 21011, 21200, -1, 1, 500])
    func permanent(status: Int) {
        let outcome = VerifyReceiptStatus.classify(status: status, isRetryable: true)
        guard case .permanent(let reason) = outcome else {
            Issue.record("\(status) gave \(outcome)")
            return
        }
        #expect(reason.hasPrefix("\(status): "))
    }

    @Test func sharedSecretMismatchReason() {
        #expect(VerifyReceiptStatus.classify(status: 21004, isRetryable: nil) == .permanent(reason: "21004: shared secret does not match"))
    }

    @Test("21100-21199 follow is-retryable", arguments: [21100, 21150, 21199])
    func internalErrors(status: Int) {
        #expect(
            VerifyReceiptStatus.classify(status: status, isRetryable: true)
                == .retry(reason: "\(status): internal data access error (retryable)"))
        #expect(VerifyReceiptStatus.classify(status: status, isRetryable: false).reason?.hasPrefix("\(status): ") == true)
        if case .permanent = VerifyReceiptStatus.classify(status: status, isRetryable: nil) {
        } else {
            Issue.record("\(status) without is-retryable must be permanent")
        }
        if case .permanent = VerifyReceiptStatus.classify(status: status, isRetryable: false) {
        } else {
            Issue.record("\(status) with is-retryable false must be permanent")
        }
    }

    @Test(
        "is-retryable spellings",
        arguments: [
            #"{"status": 21100, "is-retryable": true}"#,
            #"{"status": 21100, "is_retryable": true}"#,
            #"{"status": 21100, "is-retryable": 1}"#,
            #"{"status": 21100, "is_retryable": "1"}"#,
            #"{"status": "21100", "is-retryable": "true"}"#,
        ])
    func retryableSpellings(body: String) throws {
        let response = try VerifyReceiptResponse.decode(from: json(body))
        #expect(response.isRetryable == true)
        #expect(response.outcome == .retry(reason: "21100: internal data access error (retryable)"))
    }

    @Test func responseAndNamespaceAgree() {
        for status in [0, 21002, 21004, 21007, 21100, 99999] {
            #expect(
                VerifyReceiptResponse.classify(status: status, isRetryable: true)
                    == VerifyReceiptStatus.classify(status: status, isRetryable: true))
        }
    }
}
