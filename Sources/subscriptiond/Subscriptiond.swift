import ArgumentParser
import BuildInfo
import Composition
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import Server
import ServiceSupport
import Settings

/// The long-running worker: notification intake, query API and background processing.
@main
struct Subscriptiond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keeps App Store subscription status true: intake, verification, query API.",
        discussion: """
            Every setting is an environment variable; each flag below overrides the variable of \
            the same name. See README.md for the full table.

            Example:
              DATABASE_URL=postgresql://localhost/subscriptiond \\
              APPSTORE_BUNDLE_ID=com.example.app APPSTORE_SHARED_SECRET=… subscriptiond --port 8080
            """,
        version: BuildInfo.versionLine("subscriptiond")
    )

    @OptionGroup var settings: ServiceSettingsOptions

    func run() async throws {
        let arenas = MallocArenas.apply(
            environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.load(environment: settings.environment(merging: ProcessInfo.processInfo.environment))
        } catch let error as ConfigurationError {
            Self.fail("\(error)", code: 2)
        }
        LoggingSystem.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "subscriptiond")

        do {
            let application = try await buildApplication(
                configuration: configuration,
                environment: ApplicationEnvironment(logger: logger, metricsRegistry: registry)
            )
            logger.info(
                "starting",
                metadata: [
                    "address": "\(configuration.host):\(configuration.port)", "apps": "\(configuration.apps.bundleIDs)",
                    "malloc_arenas": "\(arenas.map(String.init) ?? "glibc's")",
                ])
            try await application.runService()
        } catch {
            let failure = FailureReport(error)
            Self.fail("subscriptiond: \(failure.message)", code: failure.exitCode)
        }
    }

    /// Prints one line to standard error and exits.
    static func fail(_ line: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        Foundation.exit(code)
    }
}
