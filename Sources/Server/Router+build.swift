import Composition
import Console
import Hummingbird
import Intake
import Logging
import ServiceSupport
import Settings
import StoredAnswers
import UseCases

/// The routes: health and metrics, notification intake, and the query API (`/v1`, for API
/// keys and `ADMIN_TOKEN`, each route guarded by its scope: `APIRoute`), and the console (`/console`, unless `CONSOLE=off`). Each controller decodes, calls one use case of `components`, encodes.
func buildRouter(
    configuration: ServiceConfiguration, environment: ApplicationEnvironment, components: ServiceComponents,
    intakeBatcher: IntakeBatcher, largeBodies: LargeBodyLane, intakeLatency: IntakeLatencyWindow?,
    console: ConsoleMount? = nil
) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ConnectionCloseMiddleware())
    router.add(middleware: ErrorMappingMiddleware())
    HealthController(readiness: ReadinessCache(migrations: components.migrations)).addRoutes(to: router)
    MetricsController(registry: environment.metricsRegistry, token: configuration.metricsToken).addRoutes(to: router)
    NotificationIntakeController(
        parser: NotificationIntakeParser(apps: configuration.apps),
        signed: SignedNotificationIntake(
            verifier: components.signatures, apps: configuration.apps, freshness: configuration.notificationFreshness,
            now: environment.intakeClock),
        batcher: intakeBatcher, maxBodyBytes: configuration.maxBodyBytes, largeBodies: largeBodies,
        bodyBudget: InflightBodyBudget(capacity: configuration.intakeMaxInflightBytes), latency: intakeLatency
    ).addRoutes(to: router)
    RetentionMessagingController(retention: components.retentionMessages).addRoutes(to: router)

    let api = router.group("v1").add(middleware: APIKeyMiddleware(authentication: components.keyAuthentication))
    SubscriptionsController(answers: components.readAnswers).addRoutes(to: api)
    AppAccountTokenAssignmentController(assignment: components.appAccountTokenAssignment, maxBodyBytes: configuration.maxBodyBytes)
        .addRoutes(to: api)
    TransactionsController(purchases: components.purchases, maxBodyBytes: configuration.maxBodyBytes).addRoutes(to: api)
    ReceiptsController(purchases: components.purchases, apps: configuration.apps, maxBodyBytes: configuration.maxBodyBytes).addRoutes(
        to: api)
    SubscribersController(
        answers: components.readAnswers, forgetting: components.forgetting,
        questions: components.eligibilityQuestions, maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: api)
    ReportsController(reports: components.reports).addRoutes(to: api)
    PurchaseDeliveryController(finishing: components.transactionFinishing).addRoutes(to: api)
    OffersController(offers: components.offers, maxBodyBytes: configuration.maxBodyBytes).addRoutes(to: api)
    ConsentController(
        consents: components.consumptionConsents, reports: components.consumptionReports, maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: api)
    EntitlementsController(
        answers: components.readAnswers, grants: components.grants, appTransactions: components.appTransactions,
        appAccountTokens: components.appAccountTokens,
        maxBodyBytes: configuration.maxBodyBytes
    ).addRoutes(to: api)
    if let console {
        ConsoleController(
            services: ConsoleServices(
                sessions: components.consoleSessions, reports: components.reports, answers: components.readAnswers,
                profiles: components.customerProfile, customers: components.customerDirectory, grants: components.grants,
                forgetting: components.forgetting, recheck: components.customerRecheck, replay: components.deadWorkReplay,
                keys: components.apiKeys, operations: components.operationsLists, pipeline: components.pipelineHealth,
                upstreamErrors: console.upstreamErrors, replica: components.replicaMonitor?.route),
            templates: console.templates, loopbackHTTP: configuration.listensOnLoopbackHTTP
        ).addRoutes(to: router)
    }
    return router
}

/// What the console is served with: its templates, and the process's upstream failures.
struct ConsoleMount {
    let templates: ConsoleTemplates
    let upstreamErrors: UpstreamErrorWindow
}
