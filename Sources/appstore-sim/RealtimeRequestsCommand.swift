import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim realtime-requests`: Get Retention Message request bodies signed as the App
/// Store signs them, one JSON object per line, for load tests of a retention endpoint
/// (Benchmarks/retention.sh) without the simulator serving.
struct RealtimeRequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime-requests",
        abstract: "Write signed Get Retention Message request bodies, one per line, for load tests.",
        discussion: """
            Each body is {"signedPayload": JWS} signed with the --state-dir PKI (trust it with \
            `appstore-sim ca`), naming original transaction --first-id + --step × (i mod --distinct) for the i-th body, a new request identifier, and signedDate now: \
            subscriptiond refuses requests signed more than five minutes before they arrive.
            """
    )

    @OptionGroup var state: StateOptions

    @Option(help: "How many bodies to write.")
    var count = 1_000

    @Option(help: "The first original transaction id (a whole number).")
    var firstID: UInt64

    @Option(help: "How many different original transactions the bodies name.")
    var distinct = 1_000

    @Option(help: "The difference between consecutive original transaction ids.")
    var step: UInt64 = 1

    @Option(help: "Sandbox or Production.")
    var environment = "Sandbox"

    @Option(help: "The app's Apple ID (appAppleId).")
    var appAppleID = 1

    @Option(help: "The product the customer looks at (productId).")
    var productID = "com.example.pro.monthly"

    @Option(help: "The file to write.")
    var out: String

    func validate() throws {
        guard count > 0, distinct > 0, step > 0 else { throw ValidationError("--count, --distinct and --step must be positive") }
        guard count <= 1_000_000 else { throw ValidationError("--count is at most 1000000 (about 3 kB a body)") }
        let (span, spanOverflow) = step.multipliedReportingOverflow(by: UInt64(distinct - 1))
        guard !spanOverflow, !firstID.addingReportingOverflow(span).overflow else {
            throw ValidationError("--first-id + --step × (--distinct - 1) is beyond the largest transaction id")
        }
        guard SimEnvironment(rawValue: environment) != nil else { throw ValidationError("--environment must be Sandbox or Production") }
    }

    func run() async throws {
        let signer = RealtimeRequestSigner(pki: try state.pki())
        let environment = SimEnvironment(rawValue: environment) ?? .sandbox
        var text = ""
        text.reserveCapacity(count * 3_000)
        for index in 0..<count {
            let fields = RealtimeRequestFields(
                originalTransactionID: String(firstID + step * UInt64(index % distinct)), appAppleID: appAppleID, productID: productID,
                environment: environment)
            text += String(decoding: try signer.body(fields), as: UTF8.self) + "\n"
        }
        try text.write(toFile: out, atomically: true, encoding: .utf8)
    }
}
