import AppStoreServerAPI
import AppStoreSignature
import HTTPClient
import Logging
import Settings
import UseCases

/// Everything that talks to Apple, and the verifier of what Apple signs, made from the
/// configuration in this one place for both executables: `subscriptiond` (through
/// `ServiceComponents`) and `subscriptionctl`'s commands. A setting that shapes them (the
/// roots, `APPSTORE_ONLINE_CHECKS`, the endpoints, the CA bundle, the timeout, the keys)
/// therefore cannot apply to one executable and not the other.
public struct AppleUpstreams: Sendable {
    /// The roots signed payloads must chain to (`APPSTORE_ROOT_CERTIFICATES`), read once.
    public let roots: AppleRootCertificates
    /// Verifies signed payloads: offline always, over OCSP too with `APPSTORE_ONLINE_CHECKS`.
    public let signatures: SignedPayloadVerifier
    /// Checks an app receipt's PKCS#7 signature (`APPSTORE_RECEIPT_ROOT_CERTIFICATES`).
    public let receiptProof: AppReceiptVerifier
    /// Each app's App Store Server API client, over the worker's (a command's) transfers.
    public let appStoreAPI: AppStoreAPIDirectory
    /// The libcurl clients underneath.
    let clients: UpstreamClients
    private let configuration: ServiceConfiguration

    /// Builds the clients and the verifier; `transfers` sizes the worker's clients (a
    /// command's concurrency; nil: from `WORKER_CONCURRENCY`). Throws a `ConfigurationError`
    /// for roots or keys that do not load, with every client already stopped.
    public static func open(
        configuration: ServiceConfiguration, logger: Logger, transfers: Int? = nil,
        onRequest: @escaping @Sendable (_ upstream: String, _ duration: Duration, _ status: Int?) -> Void = { _, _, _ in }
    ) async throws -> AppleUpstreams {
        let roots = try TrustAnchors.signedPayloads.load(configuration.appleRootCertificates)
        let receiptProof = AppReceiptVerifier(roots: try TrustAnchors.appReceipts.load(configuration.appleReceiptRootCertificates))
        let clients = UpstreamClients(configuration: configuration, logger: logger, workerTransfers: transfers, onRequest: onRequest)
        let revocation = configuration.appStoreOnlineChecks ? OCSPResponderClient(http: clients.ocsp).revocationChecking : nil
        let signatures = SignedPayloadVerifier(roots: roots, revocation: revocation)
        do {
            let appStoreAPI = try AppStoreAPIDirectory(
                configuration: configuration, http: clients.workerAppStore, verifier: signatures, logger: logger)
            return AppleUpstreams(
                roots: roots, signatures: signatures, receiptProof: receiptProof, appStoreAPI: appStoreAPI, clients: clients,
                configuration: configuration)
        } catch {
            await clients.shutdown()
            throw error
        }
    }

    /// `verifyReceipt` (production, then sandbox), through the worker's (a command's) transfers.
    public var receipts: ReceiptVerifier { clients.receiptVerifier(over: clients.worker, configuration) }

    /// What Apple says, through the worker's (a command's) transfers.
    public var evidence: AppleEvidence { AppleEvidence(receipts: receipts, api: appStoreAPI) }

    /// What Apple says, through the `/v1` API's own transfers (the same apps' rate limiters).
    var apiEvidence: AppleEvidence {
        AppleEvidence(
            receipts: clients.receiptVerifier(over: clients.api, configuration), api: appStoreAPI.over(clients.apiAppStore))
    }

    /// Stops every client; transfers still running fail.
    public func shutdown() async {
        await clients.shutdown()
    }
}
