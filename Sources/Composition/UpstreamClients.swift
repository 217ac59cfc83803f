import AppStoreServerAPI
import HTTPClient
import Logging
import Settings
import UseCases

/// The process's libcurl clients, one per kind of caller, so no caller's backlog queues
/// another's requests behind it for transfer slots.
struct UpstreamClients {
    /// `verifyReceipt` for the worker: every attempt's call at once (one multi loop, one
    /// connection per transfer over HTTP/1.1, shared over HTTP/2).
    let worker: CurlHTTPClient
    /// `verifyReceipt` for the `/v1` API.
    let api: CurlHTTPClient
    /// The App Store Server API for the worker.
    let workerAppStore: CurlHTTPClient
    /// The App Store Server API for the `/v1` API.
    let apiAppStore: CurlHTTPClient
    /// Apple's OCSP responders (online checks): a slow responder holds only its own transfers.
    let ocsp: CurlHTTPClient
    /// Webhook deliveries: they never queue behind Apple's calls (and back).
    let webhooks: CurlHTTPClient

    /// Which upstream a request went to, for `onRequest`.
    enum Upstream: String, Sendable {
        case verifyReceipt = "verify_receipt"
        case appStoreServerAPI = "app_store_server_api"
        case ocsp
        case webhook
    }

    /// The clients; `workerTransfers` sizes the worker's (nil: from `WORKER_CONCURRENCY`);
    /// `onRequest` hears of every request's upstream, duration and HTTP status (nil: no answer).
    init(
        configuration: ServiceConfiguration, logger: Logger, workerTransfers: Int? = nil,
        onRequest: @escaping @Sendable (_ upstream: String, _ duration: Duration, _ status: Int?) -> Void = { _, _, _ in }
    ) {
        let caBundle = configuration.upstreamCABundle
        func client(_ upstream: Upstream, _ transfers: Int, maxResponseBytes: Int = 16 * 1024 * 1024) -> CurlHTTPClient {
            var settings = CurlHTTPClient.Configuration(
                maxConcurrentTransfers: transfers, maxResponseBytes: maxResponseBytes, caBundlePath: caBundle)
            settings.onFinish = { duration, status in onRequest(upstream.rawValue, duration, status) }
            return CurlHTTPClient(configuration: settings, logger: logger)
        }
        let workerTransfers = workerTransfers ?? max(2, configuration.workerConcurrency)
        worker = client(.verifyReceipt, workerTransfers)
        api = client(.verifyReceipt, configuration.apiUpstreamConcurrency)
        workerAppStore = client(.appStoreServerAPI, workerTransfers)
        apiAppStore = client(.appStoreServerAPI, configuration.apiUpstreamConcurrency)
        ocsp = client(.ocsp, 4, maxResponseBytes: 64 * 1024)
        webhooks = client(.webhook, configuration.webhookConcurrency)
    }

    var all: [CurlHTTPClient] { [worker, api, workerAppStore, apiAppStore, ocsp, webhooks] }

    /// `verifyReceipt` (production, then sandbox) over `http`.
    func receiptVerifier(over http: CurlHTTPClient, _ configuration: ServiceConfiguration) -> ReceiptVerifier {
        ReceiptVerifier(
            http: http, productionURL: configuration.verifyReceiptURL, sandboxURL: configuration.verifyReceiptSandboxURL,
            timeout: configuration.verifyTimeout)
    }

    func shutdown() async {
        for client in all { try? await client.shutdown() }
    }
}
