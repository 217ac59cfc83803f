import AppStoreSignature
import Composition
import Console
import Foundation
import Hummingbird
import HummingbirdCore
import Intake
import Logging
import NIOCore
import ServiceLifecycle
import ServiceSupport
import Settings
import StoredAnswers
import UseCases

/// Builds the whole `subscriptiond` process: routes, worker, and the resources they share,
/// as one Hummingbird application whose services start and stop together.
///
/// Refuses (throws) when the database schema is behind or the Schema directory is missing.
public func buildApplication(
    configuration: ServiceConfiguration,
    environment: ApplicationEnvironment
) async throws -> some ApplicationProtocol {
    let logger = environment.logger
    // First, so a bad certificate or key stops startup before anything else opens.
    let tlsContexts = try configuration.tls.map(TLSContextStore.init(files:))
    // And the console's templates, when it is on: a missing one stops startup, not a page.
    let consoleTemplates = configuration.consoleEnabled ? try await ConsoleTemplates.load() : nil
    let workerSignal = WorkerSignal()
    // Failed upstream requests of the last hour, for the console's overview.
    let upstreamErrors = UpstreamErrorWindow()
    let components = try await ServiceComponents.open(
        configuration: configuration, logger: logger, retryPolicy: environment.retryPolicy,
        onQueued: { await workerSignal.signal() }, onAnswerWrite: ReadAnswerMetrics.recordWrites,
        onUpstreamRequest: { upstream, duration, status in
            PipelineMetrics.upstreamRequest(upstream: upstream, duration: duration, status: status)
            upstreamErrors.record(upstream: upstream, status: status)
        }, onRead: ReplicaMonitorService.recordRead, onRetentionAnswerWrite: RetentionMetrics.recordWrites,
        onDatabaseConnect: DatabaseConnectionMetrics.record)
    warnAboutTrust(configuration, roots: components.roots, logger: logger)
    for warning in configuration.unknownSettingWarnings + configuration.exposureWarnings() { logger.warning("\(warning)") }

    let runsWorker = environment.runsWorker && configuration.workerConcurrency > 0
    // Intake's answer times, which the worker yields to; kept only when both run here.
    let intakeLatency = configuration.workerYieldLatency.flatMap { runsWorker ? IntakeLatencyWindow(threshold: $0) : nil }
    let worker = NotificationWorker(
        inbox: components.inbox, processor: components.processor, signal: workerSignal,
        configuration: .init(
            concurrency: configuration.workerConcurrency, lease: components.workerLease, pollInterval: environment.workerPollInterval),
        intakeLatency: intakeLatency, logger: logger
    )
    let webhooks = WebhookDelivery(
        outbox: components.webhookOutbox, sender: components.webhookSender, apps: configuration.apps,
        configuration: .init(
            concurrency: configuration.webhookConcurrency,
            lease: configuration.webhookLease ?? configuration.webhookTimeout + .seconds(30),
            pollInterval: environment.workerPollInterval, retry: environment.webhookRetryPolicy
        ),
        logger: logger
    )
    let retention = RetentionService(
        retention: components.receiptRetention, days: configuration.retentionDays, dropSigned: configuration.retentionDropSigned,
        partitions: components.partitions, partitionDays: configuration.partitionRetentionDays,
        interval: environment.retentionInterval, logger: logger
    )
    let sweep = StatusSweepService(
        sweep: components.sweep, reviews: components.entitlementReviews, interval: environment.sweepInterval, logger: logger)
    let consumption = ConsumptionSenderService(
        answers: components.consumptionAnswers, interval: environment.consumptionInterval, logger: logger)
    let finishes = FinishTransactionSenderService(
        finishing: components.transactionFinishing, interval: environment.consumptionInterval, logger: logger)
    // Group commit: a few batches in flight, each taking what arrived meanwhile; the rest of
    // the pool stays for the worker and the query API.
    let intakeBatcher = IntakeBatcher(
        inbox: components.inbox,
        configuration: .init(
            maximumBatchesInFlight: max(1, min(4, configuration.databasePoolSize / 4)),
            queueTimeout: configuration.databaseLeaseTimeout
        ),
        logger: logger,
        onStored: { await workerSignal.signal() }
    )
    let largeBodies = LargeBodyLane()
    let router = buildRouter(
        configuration: configuration, environment: environment, components: components, intakeBatcher: intakeBatcher,
        largeBodies: largeBodies, intakeLatency: intakeLatency,
        console: consoleTemplates.map { ConsoleMount(templates: $0, upstreamErrors: upstreamErrors) })

    var services: [any Service] = components.databaseServices
    services += [
        // Before the database closes: entries still queued answer 503 (Apple retries them);
        // batches already sent finish and answer.
        ShutdownService(name: "intake") {
            intakeBatcher.close()
            try await largeBodies.shutdown()
        },
        // Before the database closes: answers computed by the last reads are still written.
        ShutdownService(name: "read-answers") {
            components.answerWriter.close()
            await components.answerWriter.flush()
        },
        // Before the database closes: what the last retention requests were answered is recorded.
        ShutdownService(name: "retention-answers") {
            components.retentionAnswerWriter.close()
            await components.retentionAnswerWriter.flush()
        },
    ]
    services += components.upstreamServices
    services.append(APIKeyRefreshService(authentication: components.keyAuthentication, logger: logger))
    services.append(PipelineMetricsService(components: components, interval: environment.metricsSampleInterval, logger: logger))
    if let replicaMonitor = components.replicaMonitor {
        services.append(ReplicaMonitorService(monitor: replicaMonitor))
    }
    if runsWorker {
        services.append(worker)
        services.append(webhooks)
        services.append(retention)
        services.append(sweep)
        services.append(consumption)
        services.append(finishes)
        services.append(ReportRollupService(counting: components.reportRollups, interval: environment.reportRollupInterval, logger: logger))
    } else if configuration.workerConcurrency == 0 {
        logger.notice("WORKER_CONCURRENCY is 0: this process takes notifications but does not process them")
    }
    // Last, so it hears of a graceful shutdown right after the listener closes (STOPPING=1).
    let systemd = environment.systemd
    let watchdogReadiness = ReadinessCache(migrations: components.migrations)
    services.append(
        SystemdNotifyService(
            notifier: systemd,
            isHealthy: {
                // The readiness check answering at all, ready or not, is health: a database
                // that is down makes intake answer 503 until it is back, and a restart would
                // not bring it back sooner; a check that never answers is a wedged process.
                if let problem = await watchdogReadiness.problem(logger: logger) {
                    logger.debug("watchdog: not ready: \(problem)")
                }
                return true
            },
            logger: logger))
    let onServerRunning = environment.onServerRunning
    // Per connection: a cap per client address, and a deadline for each request to arrive whole.
    let connectionsPerAddress = ConnectionsPerAddress(cap: configuration.httpMaxConnectionsPerAddress)
    let requestTimeout = TimeAmount(configuration.httpRequestTimeout)
    let http1 = HTTP1Channel.Configuration(
        additionalChannelHandlers: [
            ConnectionsPerAddressHandler(registry: connectionsPerAddress, onRefusal: ConnectionGuardMetrics.addressAtCap),
            RequestReadDeadlineHandler(limit: requestTimeout, onExpiry: ConnectionGuardMetrics.requestTimedOut),
        ],
        idleTimeout: TimeAmount(configuration.httpIdleTimeout)
    )
    // HTTPS with TLS_CERT_FILE / TLS_KEY_FILE (read again on SIGHUP), else HTTP for a reverse proxy.
    var server = HTTPServerBuilder.http1(configuration: http1)
    if let tlsContexts {
        server = HTTPServerBuilder { responder in
            ReloadableTLSChannel(base: HTTP1Channel(responder: responder, configuration: http1), contexts: tlsContexts)
        }
        services.append(TLSReloadService(contexts: tlsContexts, logger: logger))
    }
    return Application(
        router: router,
        server: server,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "subscriptiond",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.httpMaxConnections, logger: logger)
        ),
        services: services,
        onServerRunning: { channel in
            // The schema was checked before anything started; now the listener is bound.
            systemd.notify("READY=1")
            await onServerRunning(channel.localAddress?.port ?? configuration.port)
        },
        logger: logger
    )
}

/// Startup warnings about whom signed payloads are trusted from.
private func warnAboutTrust(_ configuration: ServiceConfiguration, roots: AppleRootCertificates, logger: Logger) {
    let foreignRoots = roots.rootsOtherThanAppleRootCAG3
    if !foreignRoots.isEmpty && !configuration.appleEndpointsAreLoopback {
        logger.warning(
            "APPSTORE_ROOT_CERTIFICATES trusts roots other than Apple Root CA - G3: whoever holds their keys can sign notifications this server believes",
            metadata: ["roots": "\(foreignRoots.joined(separator: "; "))"])
    }
    for bundleID in configuration.apps.bundleIDs {
        if let app = configuration.apps.app(bundleID: bundleID), app.sharedSecret == nil, app.appAppleID == nil {
            logger.warning("app \(bundleID) has neither a shared secret nor app_apple_id: it accepts only Sandbox version 2 notifications")
        }
    }
}
