import HTTPClient
import Hummingbird
import Logging
import NIOCore
import Postgres
import Prometheus
import ServiceLifecycle
import Store

/// What `buildApplication` needs besides the configuration.
public struct ApplicationEnvironment: Sendable {
    /// The process's logger.
    public var logger: Logger
    /// The registry `/metrics` exposes (bootstrapped into swift-metrics by the executable).
    public var metricsRegistry: PrometheusCollectorRegistry
    /// Called with the bound port once the server listens (tests use port 0).
    public var onServerRunning: @Sendable (Int) async -> Void

    /// Creates the environment.
    public init(
        logger: Logger,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        self.onServerRunning = onServerRunning
    }
}

/// Builds the whole `subscriptiond` process: routes, worker, and the resources they share,
/// as one Hummingbird application whose services start and stop together.
///
/// Refuses (throws) when the database schema is behind or the Schema directory is missing.
public func buildApplication(
    configuration: ServiceConfiguration,
    environment: ApplicationEnvironment
) async throws -> some ApplicationProtocol {
    let logger = environment.logger
    let database = PostgresClient(
        configuration: .init(connectionString: configuration.databaseURL, maximumConnections: configuration.databasePoolSize),
        logger: logger
    )
    let migrations = MigrationRunner(
        client: database,
        migrations: try Migration.load(from: SchemaDirectory.locate(explicit: configuration.schemaDirectory))
    )
    do {
        try await migrations.requireCurrent()
    } catch {
        try? await database.shutdown()
        throw error
    }

    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ErrorMappingMiddleware())
    HealthController(database: database, migrations: migrations).addRoutes(to: router)
    MetricsController(registry: environment.metricsRegistry).addRoutes(to: router)

    if configuration.adminToken == nil {
        logger.notice("ADMIN_TOKEN is not set: the query API (/v1/...) is off and answers 404")
    }

    let onServerRunning = environment.onServerRunning
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "subscriptiond"),
        services: [ShutdownService(name: "database") { try await database.shutdown() }],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
}
