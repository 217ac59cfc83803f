import ArgumentParser
import Composition
import Foundation

/// Runs a command that talks to Apple only (no database): an `APISession` with one transfer,
/// every failure turned into one line on stderr and the contract's exit code.
enum APICommandExecution {
    static func run(_ body: (APISession) async throws -> Void) async throws {
        do {
            try await APISession.with(concurrency: 1, body)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let report = FailureReport(RetentionRefusal.explained(error))
            Output.error("subscriptionctl: \(report.message)")
            throw ExitCode(report.exitCode)
        }
    }
}
