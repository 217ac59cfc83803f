import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl migrate [--status] [--dry-run]`.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending schema migrations (Schema/*.sql), each once, in order, in its own transaction.",
        discussion: """
            An applied file that was edited since is an error naming it (exit 2): add a new file instead.

            Examples:
              subscriptionctl migrate
              subscriptionctl migrate --status --json
              subscriptionctl migrate --dry-run --database-url postgresql://db/subscriptiond
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "List every migration as applied or pending; change nothing.")
    var status = false

    @Flag(help: "Show what would be applied; change nothing.")
    var dryRun = false

    @Option(help: "Folder with the migration files (default: $SUBSCRIPTIOND_SCHEMA_DIR, ./Schema, or next to the binary).")
    var schemaDir: String?

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let directory = try SchemaDirectory.locate(
                explicit: schemaDir ?? ProcessInfo.processInfo.environment["SUBSCRIPTIOND_SCHEMA_DIR"])
            let runner = context.migrations(try Migration.load(from: directory))
            if status || dryRun {
                try report(try await runner.status(), pendingOnly: dryRun && !status)
            } else {
                let applied = try await runner.migrate()
                if options.json {
                    try Output.json(["applied": applied])
                } else if applied.isEmpty {
                    Output.line("schema is up to date")
                } else {
                    applied.forEach { Output.line("applied \($0)") }
                }
            }
        }
    }

    private func report(_ entries: [MigrationRunner.Entry], pendingOnly: Bool) throws {
        let shown = pendingOnly ? entries.filter { !$0.isApplied } : entries
        if options.json {
            try Output.json(MigrationStatusDocument(migrations: shown.map(MigrationStatusDocument.Item.init)))
            return
        }
        if shown.isEmpty {
            Output.line(pendingOnly ? "nothing to apply: schema is up to date" : "no migrations found")
            return
        }
        var table = Table("MIGRATION", "STATE", "APPLIED AT")
        for entry in shown {
            table.append([
                entry.name, entry.isApplied ? "applied" : (pendingOnly ? "would apply" : "pending"),
                entry.appliedAt.map(TimeText.utc) ?? "-",
            ])
        }
        Output.line(table.render())
    }
}

/// `migrate --status --json`: `{"migrations":[{"name","state","applied_at"}]}`.
struct MigrationStatusDocument: Encodable {
    struct Item: Encodable {
        let name: String
        let state: String
        let appliedAt: Date?

        init(_ entry: MigrationRunner.Entry) {
            name = entry.name
            state = entry.isApplied ? "applied" : "pending"
            appliedAt = entry.appliedAt
        }

        enum CodingKeys: String, CodingKey { case name, state, appliedAt = "applied_at" }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(state, forKey: .state)
            try container.encode(appliedAt, forKey: .appliedAt)  // null while pending
        }
    }

    let migrations: [Item]
}
