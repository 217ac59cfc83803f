/// Waiting for a condition that another process makes true.
public enum Polling {
    /// Asks `condition` every 200 ms until it holds or `seconds` pass; whether it held.
    public static func until(seconds: Int, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try await condition()
    }
}
