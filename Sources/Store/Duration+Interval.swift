extension Duration {
    /// The duration in seconds, for `make_interval(secs => …)` (a claim's lease).
    var intervalSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
