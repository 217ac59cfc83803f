import AppStoreSimulator
import ArgumentParser
import Foundation

/// Where the simulator keeps what must survive runs: its signing PKI.
struct StateOptions: ParsableArguments {
    @Option(help: "State folder (the signing PKI for v2 notifications). Default: .local/appstore-sim under the current directory.")
    var stateDir: String?

    /// The state folder.
    var directory: URL {
        stateDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? SimPKI.defaultStateDirectory
    }

    /// The persisted PKI, created on first use.
    func pki() throws -> SimPKI {
        try SimPKI.loadOrCreate(in: directory)
    }
}
