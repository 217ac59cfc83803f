import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation

/// `subscriptionctl retention messages list|upload|delete`.
struct RetentionMessagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messages",
        abstract: "List, upload and delete retention messages (Apple reviews each before showing it).",
        subcommands: [RetentionMessagesListCommand.self, RetentionMessagesUploadCommand.self, RetentionMessagesDeleteCommand.self]
    )
}

/// `subscriptionctl retention messages list [--app B] [--environment E]`.
struct RetentionMessagesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Every uploaded message and Apple's review state (PENDING, APPROVED, REJECTED).",
        discussion: """
            Messages the app's retention rules answer with are marked; one Apple has not \
            approved is named in a warning, since the App Store shows the default message instead.

            Example:
              subscriptionctl retention messages list --environment Sandbox
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            let environment = target.appStoreEnvironment
            let messages = try await client.retentionMessages(environment: environment, logger: session.logger)
            let report = RetentionMessageReport(
                messages: messages, usedByRules: RetentionRuleMessages.identifiers(bundleID: client.bundleID, settings: session.settings))
            if options.json {
                try Output.json(report.document(app: client.bundleID, environment: environment.rawValue))
                return
            }
            Output.line("\(messages.count) message\(messages.count == 1 ? "" : "s") of \(client.bundleID) (\(environment.rawValue))")
            if !messages.isEmpty { Output.line(report.table()) }
            for warning in report.warnings { Output.line("warning: \(warning)") }
        }
    }
}

/// `subscriptionctl retention messages upload --header H --body B [--id UUID] [--image UUID --alt-text T]`.
struct RetentionMessagesUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a message; prints its identifier (Apple reviews it before it can be shown).",
        discussion: """
            The header has at most 66 characters, the body 144, the alternative text 150. \
            --image names an image uploaded with `retention images upload` (FULL_SIZE). Without \
            --id a new UUID is made and printed.

            Example:
              subscriptionctl retention messages upload --header "Before you go" --body "Keep Pro for half price this month."
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    @Option(help: ArgumentHelp("The message identifier (a UUID; a new one when omitted).", valueName: "uuid"))
    var id: String?

    @Option(help: "The header text (at most 66 characters).")
    var header: String

    @Option(help: "The body text (at most 144 characters).")
    var body: String

    @Option(help: ArgumentHelp("An uploaded FULL_SIZE image shown with the message.", valueName: "uuid"))
    var image: String?

    @Option(help: "The image's alternative text (at most 150 characters; needed with --image).")
    var altText: String?

    @Flag(help: "Put the header above the image rather than above the body (needs --image).")
    var headerAboveImage = false

    func validate() throws {
        if let id, UUID(uuidString: id) == nil { throw ValidationError("--id must be a UUID, got '\(id)'") }
        if let image, UUID(uuidString: image) == nil { throw ValidationError("--image must be a UUID, got '\(image)'") }
        if (image == nil) != (altText == nil) { throw ValidationError("--image and --alt-text go together") }
        if let problem = content.problem { throw ValidationError(problem) }
    }

    /// The message as Apple takes it.
    var content: RetentionMessageContent {
        RetentionMessageContent(
            header: header, body: body,
            image: image.flatMap(UUID.init(uuidString:)).map { RetentionMessageImage(imageIdentifier: $0, altText: altText ?? "") },
            headerPosition: headerAboveImage ? .aboveImage : nil)
    }

    func run() async throws {
        let identifier = id.flatMap(UUID.init(uuidString:)) ?? UUID()
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            let environment = target.appStoreEnvironment
            try await client.uploadRetentionMessage(identifier, content, environment: environment, logger: session.logger)
            let text = identifier.uuidString.lowercased()
            if options.json {
                try Output.json(RetentionUploadDocument(identifier: text, app: client.bundleID, environment: environment.rawValue))
            } else {
                Output.line(text)
                Output.line(
                    "uploaded message \(text) for \(client.bundleID) (\(environment.rawValue)); Apple reviews it before it is shown")
            }
        }
    }
}

/// `subscriptionctl retention messages delete UUID`.
struct RetentionMessagesDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a message (exit 1 when Apple has no such message).",
        discussion: """
            Example:
              subscriptionctl retention messages delete 0f2a8d4e-5b1c-4c7a-9e3d-2b6f1a7c8d90
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    @Argument(help: "The message identifier.")
    var identifier: String

    func run() async throws {
        try await target.delete("message", identifier) { client, uuid, environment, logger in
            try await client.deleteRetentionMessage(uuid, environment: environment, logger: logger)
        }
    }
}

/// `retention messages upload --json` and `retention images upload --json`.
struct RetentionUploadDocument: Encodable {
    let identifier: String
    let app: String
    let environment: String
}
