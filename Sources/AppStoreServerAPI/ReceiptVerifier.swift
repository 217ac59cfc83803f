import AppStore
import Foundation
import HTTPClient
import Logging
import ServiceSupport

/// What verifying a receipt upstream came to.
public enum VerificationResult: Sendable {
    /// Apple vouched for the receipt (status 0 or 21006); apply the response's facts.
    case verified(VerifyReceiptResponse, observedAt: Date, endpoint: AppStoreEnvironment)
    /// Trouble that can heal; `limited` is true for answers worth only a few more tries (21002).
    case retry(reason: String, limited: Bool)
    /// The receipt or the configuration is wrong; retrying will not help.
    case permanent(reason: String)
}

/// Calls Apple's verifyReceipt through libcurl: production first, sandbox on 21007,
/// production on 21008, and classifies every answer per APPSTORE.md.
public struct ReceiptVerifier: Sendable {
    private let http: CurlHTTPClient
    private let productionURL: String
    private let sandboxURL: String
    private let timeout: Duration

    /// Creates a verifier over a shared HTTP client.
    public init(http: CurlHTTPClient, productionURL: String, sandboxURL: String, timeout: Duration) {
        self.http = http
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.timeout = timeout
    }

    /// Verifies base64 receipt data with the app's shared secret. Never throws: every
    /// failure is classified. The receipt and secret are never logged. An answer whose
    /// receipt names another bundle id is permanent: a shared secret must not vouch for
    /// another app's receipts.
    public func verify(
        receiptData: String, bundleID expectedBundleID: String, sharedSecret: String?, logger: Logger
    ) async
        -> VerificationResult
    {
        guard let sharedSecret else {
            return .permanent(reason: "no shared secret is configured for \(expectedBundleID): verifyReceipt needs one")
        }
        let body: [UInt8]
        do {
            body = try VerifyReceiptRequest(receiptData: receiptData, password: sharedSecret, excludeOldTransactions: false)
                .jsonBytes()
        } catch {
            return .permanent(reason: "cannot encode the verifyReceipt request")
        }
        var endpoint = AppStoreEnvironment.production
        // At most one hop between environments: production → sandbox (21007) or back (21008).
        for _ in 0..<2 {
            let url = endpoint == .production ? productionURL : sandboxURL
            let response: HTTPResponse
            do {
                response = try await http.execute(.postJSON(url: url, body: body, timeout: timeout), logger: logger)
            } catch let error as HTTPClientError where !error.isRetryable {
                // TLS failures, an unusable URL or an oversized answer do not heal by waiting.
                return .permanent(reason: "upstream \(endpoint.rawValue.lowercased()): \(error)")
            } catch {
                return .retry(reason: "upstream \(endpoint.rawValue.lowercased()): \(error)", limited: false)
            }
            guard (200..<300).contains(response.status) else {
                return .retry(reason: "upstream \(endpoint.rawValue.lowercased()) answered HTTP \(response.status)", limited: false)
            }
            let decoded: VerifyReceiptResponse
            do {
                decoded = try VerifyReceiptResponse.decode(from: response.body)
            } catch let error as AppleValueError {
                return .permanent(reason: "upstream \(endpoint.rawValue.lowercased()) answered with a malformed value: \(error)")
            } catch {
                return .retry(reason: "upstream \(endpoint.rawValue.lowercased()) sent an unreadable answer", limited: true)
            }
            logger.debug(
                "verifyReceipt answered", metadata: [LogKey.upstreamStatus: "\(decoded.status)", "endpoint": "\(endpoint.rawValue)"])
            switch VerifyReceiptStatus.classify(status: decoded.status, isRetryable: decoded.isRetryable) {
            case .apply:
                if let receiptBundleID = decoded.receipt?.bundleID, receiptBundleID != expectedBundleID {
                    return .permanent(
                        reason:
                            "the receipt belongs to bundle id \(receiptBundleID), not to \(expectedBundleID) whose shared secret was used")
                }
                return .verified(decoded, observedAt: Date(), endpoint: endpoint)
            case .resendToSandbox where endpoint == .production:
                endpoint = .sandbox
            case .resendToProduction where endpoint == .sandbox:
                endpoint = .production
            case .resendToSandbox, .resendToProduction:
                return .permanent(reason: "\(decoded.status): upstream sent the receipt back and forth between environments")
            case .retry(let reason):
                return .retry(reason: reason, limited: false)
            case .retryFewTimes(let reason):
                return .retry(reason: reason, limited: true)
            case .permanent(let reason):
                return .permanent(reason: reason)
            }
        }
        return .permanent(reason: "upstream sent the receipt back and forth between environments")
    }
}
