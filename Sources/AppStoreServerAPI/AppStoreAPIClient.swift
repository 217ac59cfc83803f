import AppStore
import AppStoreSignature
import Foundation
import HTTPClient
import Logging

/// One app's client for Apple's App Store Server API, over the shared libcurl client.
///
/// Signs an ES256 token and reuses it for a few minutes (never per request, never logged);
/// keeps requests under Apple's per-app limits with one token bucket per environment and
/// kind of request, paced at 90% of the limit;
/// retries 429 (after Retry-After), 5xx and transport failures a bounded number of times;
/// looks transaction ids up in production first and in sandbox on 404 `TransactionIdNotFound`;
/// and verifies every signed item of an answer before returning it.
public final class AppStoreAPIClient: Sendable {
    /// The app's bundle id; every signed item must name it.
    public let bundleID: String
    let productionURL: String
    let sandboxURL: String
    let http: CurlHTTPClient
    let timeout: Duration
    let verifier: SignedPayloadVerifier
    let retries: AppStoreAPIRetryOptions
    let tokens: AppStoreAPITokenCache
    let productionLimiter: AppStoreAPIRateLimiter
    let sandboxLimiter: AppStoreAPIRateLimiter
    let testNotificationProductionLimiter: AppStoreAPIRateLimiter
    let testNotificationSandboxLimiter: AppStoreAPIRateLimiter
    let customerLookupProductionLimiter: AppStoreAPIRateLimiter
    let customerLookupSandboxLimiter: AppStoreAPIRateLimiter
    let logger: Logger

    /// A client for one app signing with its `.p8` key text; throws `.invalidPrivateKey`
    /// (naming no key material) when the key does not parse.
    public convenience init(
        bundleID: String, issuerID: String, keyID: String, privateKeyPEM: String,
        productionURL: String, sandboxURL: String, http: CurlHTTPClient, timeout: Duration,
        verifier: SignedPayloadVerifier, rateLimits: AppStoreAPIRateLimits = .init(),
        retries: AppStoreAPIRetryOptions = .init(), logger: Logger
    ) throws(AppStoreAPIError) {
        let signer: AppStoreAPIToken
        do {
            signer = try AppStoreAPIToken(privateKeyPEM: privateKeyPEM, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
        } catch {
            throw .invalidPrivateKey
        }
        self.init(
            bundleID: bundleID, token: signer, productionURL: productionURL, sandboxURL: sandboxURL,
            http: http, timeout: timeout, verifier: verifier, rateLimits: rateLimits, retries: retries, logger: logger
        )
    }

    /// A client for one app with a ready token signer (which must carry the same bundle id).
    ///
    /// Base URLs may carry a path prefix (`http://127.0.0.1:9000/prod`); endpoint paths are appended.
    public init(
        bundleID: String, token: AppStoreAPIToken,
        productionURL: String, sandboxURL: String, http: CurlHTTPClient, timeout: Duration,
        verifier: SignedPayloadVerifier, rateLimits: AppStoreAPIRateLimits = .init(),
        retries: AppStoreAPIRetryOptions = .init(), logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.bundleID = bundleID
        self.productionURL = Self.trimmingSlashes(productionURL)
        self.sandboxURL = Self.trimmingSlashes(sandboxURL)
        self.http = http
        self.timeout = timeout
        self.verifier = verifier
        self.retries = retries
        self.tokens = AppStoreAPITokenCache(signer: token, reuseFor: retries.tokenReuse, now: now)
        self.productionLimiter = .pacing(under: rateLimits.production)
        self.sandboxLimiter = .pacing(under: rateLimits.sandbox)
        self.testNotificationProductionLimiter = .pacing(under: rateLimits.testNotificationProduction)
        self.testNotificationSandboxLimiter = .pacing(under: rateLimits.testNotificationSandbox)
        self.customerLookupProductionLimiter = .pacing(under: rateLimits.customerLookupProduction)
        self.customerLookupSandboxLimiter = .pacing(under: rateLimits.customerLookupSandbox)
        self.logger = logger
    }

    /// This app's client over `http`: the same token cache and the same rate limiters (Apple's
    /// limit is per app, whoever asks), with the transfers of `http`, so that one caller (the
    /// worker) cannot take every transfer another (the `/v1` API) needs.
    public func over(_ http: CurlHTTPClient) -> AppStoreAPIClient {
        AppStoreAPIClient(sharing: self, http: http)
    }

    private init(sharing other: AppStoreAPIClient, http: CurlHTTPClient) {
        bundleID = other.bundleID
        productionURL = other.productionURL
        sandboxURL = other.sandboxURL
        self.http = http
        timeout = other.timeout
        verifier = other.verifier
        retries = other.retries
        tokens = other.tokens
        productionLimiter = other.productionLimiter
        sandboxLimiter = other.sandboxLimiter
        testNotificationProductionLimiter = other.testNotificationProductionLimiter
        testNotificationSandboxLimiter = other.testNotificationSandboxLimiter
        customerLookupProductionLimiter = other.customerLookupProductionLimiter
        customerLookupSandboxLimiter = other.customerLookupSandboxLimiter
        logger = other.logger
    }

    /// The token bucket of one environment and kind of request; share-nothing, one per
    /// client, environment and kind.
    public func rateLimiter(for environment: AppStoreEnvironment, _ rateClass: AppStoreAPIRateClass = .standard) -> AppStoreAPIRateLimiter {
        switch (rateClass, environment) {
        case (.standard, .production): productionLimiter
        case (.testNotification, .production): testNotificationProductionLimiter
        case (.customerLookup, .production): customerLookupProductionLimiter
        // Xcode is never asked (`exchange` refuses it); the sandbox's buckets stand in.
        case (.standard, .sandbox), (.standard, .xcode): sandboxLimiter
        case (.testNotification, .sandbox), (.testNotification, .xcode): testNotificationSandboxLimiter
        case (.customerLookup, .sandbox), (.customerLookup, .xcode): customerLookupSandboxLimiter
        }
    }

    func baseURL(for environment: AppStoreEnvironment) -> String {
        environment == .production ? productionURL : sandboxURL
    }

    private static func trimmingSlashes(_ url: String) -> String {
        var url = url.trimmingCharacters(in: .whitespaces)
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
