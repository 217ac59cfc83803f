/// Apple's verifyReceipt `status` table (APPSTORE.md), as one pure function.
public enum VerifyReceiptStatus {
    /// Classifies a status code; `isRetryable` matters only for 21100–21199.
    public static func classify(status: Int, isRetryable: Bool?) -> VerifyReceiptOutcome {
        switch status {
        case 0, 21006: .apply
        case 21007: .resendToSandbox
        case 21008: .resendToProduction
        case 21002: .retryFewTimes(reason: "21002: malformed receipt data or a temporary issue")
        case 21005: .retry(reason: "21005: receipt server temporarily unavailable")
        case 21009: .retry(reason: "21009: internal data access error")
        case 21100...21199:
            isRetryable == true
                ? .retry(reason: "\(status): internal data access error (retryable)")
                : .permanent(reason: "\(status): internal data access error (not retryable)")
        case 21000: .permanent(reason: "21000: request was not a readable POST")
        case 21003: .permanent(reason: "21003: receipt could not be authenticated")
        case 21004: .permanent(reason: "21004: shared secret does not match")
        case 21010: .permanent(reason: "21010: account not found or deleted")
        default: .permanent(reason: "\(status): unknown verifyReceipt status")
        }
    }
}
