import AppStore
import ArgumentParser
import Composition
import Foundation
import Settings
import Store
import UseCases

/// `subscriptionctl consumption list | show ID | send ID`.
struct ConsumptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumption",
        abstract: "CONSUMPTION_REQUESTs (refund requests) and the answers sent to Apple.",
        discussion: """
            When a customer asks Apple for a refund, Apple sends CONSUMPTION_REQUEST and waits \
            12 hours for the app's consumption information. subscriptiond records each request \
            and, for apps with a `consumption` setting, answers it once a user of the purchase \
            has consented (PUT /v1/subscribers/{id}/consent), retrying until the deadline. \
            `show` also says what Apple decided (REFUND or REFUND_DECLINED) when it arrived.
            """,
        subcommands: [ConsumptionListCommand.self, ConsumptionShowCommand.self, ConsumptionSendCommand.self]
    )
}

/// `subscriptionctl consumption list [--state S] [--limit N]`.
struct ConsumptionListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List consumption requests, newest first.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Only this state: pending, sent, failed, no_consent or expired.")
    var state: String?

    @Option(help: "At most this many (1 to 10000).")
    var limit = 50

    func validate() throws {
        if let state, ConsumptionRequest.State(rawValue: state) == nil {
            throw ValidationError(
                "--state must be one of \(ConsumptionRequest.State.allCases.map(\.rawValue).joined(separator: ", ")); got '\(state)'")
        }
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let requests = try await context.consumptionRequests.list(
                state: state.flatMap(ConsumptionRequest.State.init(rawValue:)), limit: limit)
            if options.json {
                try Output.json(["requests": requests.map(ConsumptionRequestDocument.init)])
                return
            }
            guard !requests.isEmpty else {
                Output.line("no consumption requests match")
                return
            }
            let now = Date()
            var table = Table("ID", "STATE", "TRANSACTION", "PRODUCT", "REQUESTED", "DEADLINE", "ATTEMPTS", "OUTCOME")
            for request in requests {
                table.append([
                    String(request.id), Style.state(request.state.rawValue), request.transactionID, request.productID ?? "",
                    TimeText.withAge(request.requestedAt, now: now), TimeText.utc(request.deadline), String(request.attempts),
                    request.outcome ?? "",
                ])
            }
            Output.line(table.render())
        }
    }
}

/// `subscriptionctl consumption show ID`.
struct ConsumptionShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One consumption request: what was sent, and what Apple decided.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The request's id (from `consumption list`).")
    var id: Int64

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            guard let request = try await context.consumptionRequests.request(id: id) else {
                throw CommandFailure.notFound("no consumption request \(id)")
            }
            if options.json {
                try Output.json(ConsumptionRequestDocument(request))
                return
            }
            let lines: [(String, String?)] = [
                ("state", request.state.rawValue),
                ("transaction", "\(request.transactionID) (original \(request.originalTransactionID), \(request.environment.rawValue))"),
                ("product", request.productID), ("reason", request.reason),
                ("requested", TimeText.utc(request.requestedAt)), ("deadline", TimeText.utc(request.deadline)),
                ("attempts", String(request.attempts)), ("last error", request.lastError),
                ("sent", request.sentAt.map(TimeText.utc)), ("body sent", request.body),
                (
                    "apple decided",
                    request.outcome.map { outcome in "\(outcome)" + (request.outcomeAt.map { " at \(TimeText.utc($0))" } ?? "") }
                ),
            ]
            for (label, value) in lines {
                if let value { Output.line("\(label.padding(toLength: 14, withPad: " ", startingAt: 0))\(value)") }
            }
        }
    }
}

/// `subscriptionctl consumption send ID`.
struct ConsumptionSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Answer a pending consumption request now (with the app's consumption setting).",
        discussion: """
            The same attempt the background sender makes, without waiting for its turn: sent \
            only for a consenting user and before the deadline. Exit 1 when it is not sent.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The request's id (from `consumption list`).")
    var id: Int64

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let answers = context.consumptionAnswers(api: session.directory, apps: session.settings.apps)
                guard let outcome = try await answers.send(id: id, logger: session.logger) else {
                    throw CommandFailure.notFound("no pending consumption request \(id)")
                }
                let request = try await context.consumptionRequests.request(id: id)
                guard outcome == .sent else {
                    throw CommandFailure.refused(
                        "consumption request \(id) was not sent: \(outcome.rawValue)" + (request?.lastError.map { " (\($0))" } ?? ""))
                }
                Output.line("consumption request \(id) sent: \(request?.body ?? "")")
            }
        }
    }
}

/// A consumption request as `--json` shows it.
struct ConsumptionRequestDocument: Encodable {
    let request: ConsumptionRequest

    init(_ request: ConsumptionRequest) {
        self.request = request
    }

    enum CodingKeys: String, CodingKey {
        case id, state, environment, transactionID = "transaction_id", originalTransactionID = "original_transaction_id"
        case productID = "product_id", reason, requestedAt = "requested_at", deadline, attempts, lastError = "last_error"
        case body, sentAt = "sent_at", outcome, outcomeAt = "outcome_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request.id, forKey: .id)
        try container.encode(request.state.rawValue, forKey: .state)
        try container.encode(request.environment.rawValue, forKey: .environment)
        try container.encode(request.transactionID, forKey: .transactionID)
        try container.encode(request.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(request.productID, forKey: .productID)
        try container.encode(request.reason, forKey: .reason)
        try container.encode(request.requestedAt, forKey: .requestedAt)
        try container.encode(request.deadline, forKey: .deadline)
        try container.encode(request.attempts, forKey: .attempts)
        try container.encode(request.lastError, forKey: .lastError)
        try container.encode(request.body, forKey: .body)
        try container.encode(request.sentAt, forKey: .sentAt)
        try container.encode(request.outcome, forKey: .outcome)
        try container.encode(request.outcomeAt, forKey: .outcomeAt)
    }
}
