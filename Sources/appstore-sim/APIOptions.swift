import AppStoreSimulator
import ArgumentParser
import Foundation

/// The App Store Server API's settings: the accepted key (from the state folder) and the rate limit.
struct APIOptions: ParsableArguments {
    @Option(
        help:
            "App Store Server API requests allowed per second per app and environment; more get 429 with Retry-After (default: no limit; Apple: 50, sandbox 5)."
    )
    var apiRate: Int?

    /// Loads the key `appstore-sim api-key` saved in `state` (without one, every API request
    /// gets 401) and sets the rate limit.
    func configure(_ simulator: AppStoreSimulator, state: StateOptions) throws {
        if let apiRate, apiRate < 0 { throw ValidationError("--api-rate must be 0 or more") }
        simulator.setAPIRateLimit(apiRate)
        if let key = try SimAPIKey.load(from: state.directory) {
            simulator.setAPIKey(key)
            Console.log("App Store Server API: key \(key.keyID), issuer \(key.issuerID)")
        } else {
            Console.log(
                "App Store Server API: no key in \(state.directory.path) (run `appstore-sim api-key --out key.p8`); API requests get 401")
        }
    }
}
