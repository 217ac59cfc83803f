import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation

/// `subscriptionctl retention performance-test start|result`.
struct RetentionPerformanceTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "performance-test",
        abstract: "Have Apple load-test the sandbox realtime URL, and read the verdict.",
        discussion: """
            Apple runs the test in the sandbox only, against the Sandbox realtime URL, for an \
            active sandbox subscription's original transaction id; the endpoint must answer within \
            about 700 ms at Apple's success rate before a Production URL can be set.

            Example:
              subscriptionctl retention performance-test start 2000000123456789
              subscriptionctl retention performance-test result REQUEST_ID --wait 120
            """,
        subcommands: [RetentionPerformanceTestStartCommand.self, RetentionPerformanceTestResultCommand.self]
    )
}

/// `subscriptionctl retention performance-test start ORIGINAL_TRANSACTION_ID`.
struct RetentionPerformanceTestStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a test; prints its request id and how Apple runs it.")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("The app (default: the only one with an API key).", valueName: "bundle-id"))
    var app: String?

    @Argument(help: "The original transaction id of an active sandbox subscription.")
    var originalTransactionID: String

    func validate() throws {
        guard !originalTransactionID.isEmpty, originalTransactionID.count <= 64, originalTransactionID.allSatisfy(\.isNumber) else {
            throw ValidationError("the original transaction id is digits, like 2000000123456789")
        }
    }

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: app)
            let started = try await client.startRetentionPerformanceTest(
                originalTransactionID: originalTransactionID, logger: session.logger)
            if options.json {
                try Output.json(PerformanceTestStartDocument(requestID: started.requestID, config: started.config))
                return
            }
            Output.line(started.requestID)
            let config = started.config
            var fields = Fields()
            fields.append("requests", "\(Self.text(config.totalRequests)), \(Self.text(config.maxConcurrentRequests)) at once")
            fields.append("duration", "\(Self.text(config.totalDuration)) ms at most")
            fields.append(
                "passes", "\(Self.text(config.successRateThreshold))% answered within \(Self.text(config.responseTimeThreshold)) ms")
            Output.line("performance test \(started.requestID) started for \(client.bundleID) (Sandbox)")
            Output.line(fields.render())
            Output.line(
                "then: subscriptionctl retention performance-test result \(started.requestID) --wait \(max(10, (config.totalDuration ?? 60_000) / 1_000 + 10))"
            )
        }
    }

    static func text(_ value: Int64?) -> String { value.map(String.init) ?? "?" }
}

/// `subscriptionctl retention performance-test result REQUEST_ID [--wait SECONDS]`.
struct RetentionPerformanceTestResultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "result",
        abstract: "Print PASS or FAIL and the figures (exit 1 for FAIL, or still running after --wait).")

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("The app (default: the only one with an API key).", valueName: "bundle-id"))
    var app: String?

    @Argument(help: "The request id `start` printed.")
    var requestID: String

    @Option(help: "Seconds to wait for a running test to finish (0 to 600; 0 answers at once).")
    var wait = 0

    func validate() throws {
        guard (0...600).contains(wait) else { throw ValidationError("--wait must be from 0 to 600 seconds") }
        guard !requestID.isEmpty, requestID.count <= 256 else { throw ValidationError("the request id is the one `start` printed") }
    }

    func run() async throws {
        var verdict: RetentionPerformanceTestOutcome?
        try await APICommandExecution.run { session in
            let client = try session.client(app: app)
            let deadline = ContinuousClock.now + .seconds(wait)
            var result = try await client.retentionPerformanceTestResult(requestID: requestID, logger: session.logger)
            while result.outcome == .pending, ContinuousClock.now < deadline {
                try await Task.sleep(for: .seconds(1))
                result = try await client.retentionPerformanceTestResult(requestID: requestID, logger: session.logger)
            }
            verdict = result.outcome
            if options.json {
                try Output.json(PerformanceTestResultDocument(requestID: requestID, result))
            } else {
                Output.line(PerformanceTestResultDocument.text(requestID: requestID, result))
            }
        }
        switch verdict {
        case .pass?: return
        case .pending? where wait == 0: return
        case .pending?: throw CommandFailure.refused("the performance test \(requestID) is still running after \(wait) s")
        default: throw ExitCode(1)
        }
    }
}
