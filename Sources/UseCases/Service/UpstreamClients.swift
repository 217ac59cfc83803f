import HTTPClient
import Logging
import Settings
import SubscriptiondCore

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

    init(configuration: ServiceConfiguration, logger: Logger) {
        let caBundle = configuration.upstreamCABundle
        func client(_ transfers: Int, maxResponseBytes: Int = 16 * 1024 * 1024) -> CurlHTTPClient {
            CurlHTTPClient(
                configuration: .init(maxConcurrentTransfers: transfers, maxResponseBytes: maxResponseBytes, caBundlePath: caBundle),
                logger: logger)
        }
        worker = client(max(2, configuration.workerConcurrency))
        api = client(configuration.apiUpstreamConcurrency)
        workerAppStore = client(max(2, configuration.workerConcurrency))
        apiAppStore = client(configuration.apiUpstreamConcurrency)
        ocsp = client(4, maxResponseBytes: 64 * 1024)
        webhooks = client(configuration.webhookConcurrency)
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
