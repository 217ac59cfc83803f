import Foundation
import Testing

extension CLIOperatorTests {
    @Suite("at a terminal: colour only on a TTY, progress bar for revalidate")
    struct Terminal {
        private static let escape = "\u{1B}["

        @Test("tables are coloured on a terminal, plain in pipes and with NO_COLOR")
        func colourOnlyOnTerminal() async throws {
            try await OperatorFixture.with { fixture in
                let url = fixture.service.databaseURL
                let story = try await OperatorProcess.underTerminal(
                    ["subscription", "show", OperatorFixture.cancelledID], databaseURL: url)
                #expect(story.status == 0)
                #expect(story.output.contains("\(Self.escape)2mexpired\(Self.escape)0m"), "status not coloured on a terminal")
                #expect(story.output.contains("expired: customer cancelled, auto-renew was turned off"))
                #expect(story.output.contains("TRANSACTION"))

                let list = try await OperatorProcess.underTerminal(["notifications", "list"], databaseURL: url)
                #expect(list.output.contains("\(Self.escape)32mprocessed"))
                #expect(list.output.contains("\(Self.escape)1;31mdead"))
                // Columns still line up: every row has its TYPE where the header has it.
                let lines = list.output.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map(Self.plain)
                let typeColumn = try #require(lines.first?.range(of: "TYPE")).lowerBound.utf16Offset(in: lines[0])
                for line in lines.dropFirst() {
                    let characters = Array(line)
                    #expect(
                        characters.count > typeColumn && characters[typeColumn - 1] == " " && characters[typeColumn] != " ",
                        "misaligned: \(line)")
                }

                let noColor = try await OperatorProcess.underTerminal(
                    ["notifications", "list"], databaseURL: url, environment: ["NO_COLOR": "1"])
                #expect(noColor.status == 0)
                #expect(!noColor.output.contains(Self.escape))
                let piped = try await fixture.ctl(["notifications", "list"])
                #expect(!piped.stdout.contains(Self.escape))
                #expect(!piped.stderr.contains(Self.escape))
                let json = try await OperatorProcess.underTerminal(["stats", "--json"], databaseURL: url)
                #expect(!json.output.contains(Self.escape), "--json is never coloured")
            }
        }

        @Test("revalidate --all draws a progress bar with count, rate and ETA on a terminal only")
        func progressBar() async throws {
            try await OperatorFixture.with { fixture in
                let url = fixture.service.databaseURL
                let terminal = try await OperatorProcess.underTerminal(
                    ["revalidate", "--all"], databaseURL: url, environment: fixture.upstreamEnvironment)
                #expect(terminal.status == 0)
                #expect(terminal.output.contains("revalidating ["))
                #expect(terminal.output.contains("9/9"))
                #expect(terminal.output.contains("ETA"))
                #expect(terminal.output.contains("/s"))
                #expect(terminal.output.contains("revalidated 9 subscriptions in "))

                let piped = try await fixture.ctl(["revalidate", "--all"], environment: fixture.upstreamEnvironment)
                #expect(piped.status == 0)
                #expect(!piped.stderr.contains("ETA"))
                #expect(piped.stdout.hasPrefix("revalidated 9 subscriptions in "))
            }
        }

        /// The text without ANSI colour sequences.
        private static func plain(_ text: String) -> String {
            text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
    }
}
