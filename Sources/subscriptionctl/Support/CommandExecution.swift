import ArgumentParser
import Composition
import Foundation
import Settings
import Subscriptions
import UseCases

/// Runs a command body with the deployment's database, turning any failure into one line
/// on stderr and the contract's exit code.
enum CommandExecution {
    static func withDatabase(_ options: GlobalOptions, _ body: (OperatorContext) async throws -> Void) async throws {
        // Subscriber reads are judged under the apps' entitlement policies, and purchases priced
        // under the money settings, of SUBSCRIPTIOND_CONFIG (as subscriptiond reads them).
        let policies: EntitlementPolicies
        let money: MoneySettings
        do {
            let environment = ProcessInfo.processInfo.environment
            policies = try EntitlementPolicies.load(environment: environment)
            money = try MoneySettings.load(reportCurrency: nil, configurationFile: environment["SUBSCRIPTIOND_CONFIG"])
        } catch {
            Output.error("subscriptionctl: \(FailureReport(error).message)")
            throw ExitCode(2)
        }
        let context = OperatorContext(
            databaseURL: options.resolvedDatabaseURL, policies: policies, pricing: money.purchasePricing, logger: options.logger)
        do {
            try await body(context)
            await context.shutdown()
        } catch let exit as ExitCode {
            await context.shutdown()
            throw exit
        } catch {
            await context.shutdown()
            let report = FailureReport(error)
            Output.error("subscriptionctl: \(report.message)")
            throw ExitCode(report.exitCode)
        }
    }
}

/// Where command output goes: results on stdout, diagnostics on stderr.
enum Output {
    /// One line on stdout.
    static func line(_ text: String) {
        print(text)
    }

    /// One line on stderr, after what stdout holds so far: when both go to one pipe or
    /// file, lines keep the order they were written in.
    static func error(_ text: String) {
        fflush(nil)  // every output stream, stdout included
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A JSON document on stdout, keys sorted for stable output.
    static func json(_ value: some Encodable) throws {
        print(try prettyJSON(value))
    }

    /// A value as indented JSON text, keys sorted, dates in RFC 3339 UTC.
    static func prettyJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
