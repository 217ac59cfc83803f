import AppStoreSimulator
import ArgumentParser
import Foundation

/// `appstore-sim ca`: the root certificate subscriptiond must trust for v2 notifications.
struct CACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Print (or write) the simulator's root certificate PEM, for subscriptiond's APPSTORE_ROOT_CERTIFICATES.",
        discussion: "The PKI is created in --state-dir on first use and reused afterwards, so the root stays the same."
    )

    @OptionGroup var state: StateOptions

    @Option(help: "Write the PEM to this file instead of stdout.")
    var out: String?

    func run() async throws {
        let pem = try state.pki().root.pem
        if let out {
            try pem.write(toFile: out, atomically: true, encoding: .utf8)
        } else {
            print(pem)
        }
    }
}
