import Access
import ArgumentParser
import Composition
import Foundation
import UseCases

/// `subscriptionctl console-user add/list/remove`: who may sign in to the console, with which
/// role; every change is audited under the operating system user.
struct ConsoleUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-user",
        abstract: "Add, list and remove console users (roles: viewer, support, admin), or change a password.",
        subcommands: [
            ConsoleUserAddCommand.self, ConsoleUserListCommand.self, ConsoleUserPasswordCommand.self, ConsoleUserRemoveCommand.self,
        ]
    )
}

/// `subscriptionctl console-user add NAME --role viewer|support|admin [--password-stdin]`.
struct ConsoleUserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a console user; the password is asked on the terminal (or read from stdin).",
        discussion: """
            Roles: viewer (reads customers and the numbers), support (also grants, revokes grants, \
            re-checks with Apple and unlinks), admin (everything). Passwords have at least 12 \
            characters and are kept only as bcrypt hashes. Exit 2 for a bad name, role or password, \
            1 for a name in use (names of removed users stay taken).

            Examples:
              subscriptionctl console-user add ana --role support
              printf '%s\\n' "$PASSWORD" | subscriptionctl console-user add ops --role admin --password-stdin
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The user's name, shown in the audit log as console:<name>.")
    var name: String

    @Option(help: "viewer, support or admin.")
    var role: String

    @Flag(help: "Read the password from the first line of standard input instead of asking.")
    var passwordStdin = false

    func run() async throws {
        guard let role = ConsoleRole(rawValue: role) else {
            throw ValidationError("--role must be viewer, support or admin, got \(role)")
        }
        let password = try passwordStdin ? PasswordPrompt.fromStandardInput() : PasswordPrompt.fromTerminal(for: name)
        if let problem = ConsolePassword.problem(password) { throw CommandFailure.usage(problem) }
        try await CommandExecution.withDatabase(options) { context in
            try await ManualChange.refusing {
                try await context.consoleUsers.add(name: name, role: role, password: password, by: ManualChange.principal)
            }
            Output.line("console user \(name) added (\(role.rawValue))")
        }
    }
}

/// `subscriptionctl console-user password NAME [--password-stdin]`.
struct ConsoleUserPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Give a console user a new password (asked on the terminal, or read from stdin); its sessions end.",
        discussion: """
            Exit 2 for a password refused (shorter than 12 characters, over 72 bytes), 1 for no such user.

            Example:
              subscriptionctl console-user password ana
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The user's name.")
    var name: String

    @Flag(help: "Read the password from the first line of standard input instead of asking.")
    var passwordStdin = false

    func run() async throws {
        let password = try passwordStdin ? PasswordPrompt.fromStandardInput() : PasswordPrompt.fromTerminal(for: name)
        if let problem = ConsolePassword.problem(password) { throw CommandFailure.usage(problem) }
        try await CommandExecution.withDatabase(options) { context in
            try await ManualChange.refusing {
                try await context.consoleUsers.setPassword(name: name, password: password, by: ManualChange.principal)
            }
            Output.line("console user \(name) has a new password; its sessions ended")
        }
    }
}

/// `subscriptionctl console-user list`.
struct ConsoleUserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List console users: name, role, added, state.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let users = try await context.consoleUsers.list()
            if options.json {
                struct User: Encodable {
                    let name: String
                    let role: String
                    let createdAt: Date
                    let createdBy: String
                    let removedAt: Date?
                    enum CodingKeys: String, CodingKey {
                        case name, role, createdAt = "created_at", createdBy = "created_by", removedAt = "removed_at"
                    }
                }
                try Output.json(
                    users.map {
                        User(
                            name: $0.name, role: $0.role.rawValue, createdAt: $0.createdAt, createdBy: $0.createdBy, removedAt: $0.removedAt
                        )
                    })
                return
            }
            guard !users.isEmpty else {
                Output.line("no console users (subscriptionctl console-user add NAME --role viewer|support|admin)")
                return
            }
            var table = Table("NAME", "ROLE", "ADDED", "BY", "STATE")
            for user in users {
                table.append([
                    user.name, user.role.rawValue, TimeText.utc(user.createdAt), user.createdBy,
                    user.removedAt.map { "removed \(TimeText.utc($0))" } ?? "active",
                ])
            }
            Output.line(table.render())
        }
    }
}

/// `subscriptionctl console-user remove NAME`.
struct ConsoleUserRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a console user: it can no longer sign in (its name stays taken).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The user's name.")
    var name: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await ManualChange.refusing { try await context.consoleUsers.remove(name: name, by: ManualChange.principal) }
            Output.line("console user \(name) removed")
        }
    }
}
