extension ServiceConfiguration {
    /// Whether the listener is reachable from other machines (`SUBSCRIPTIOND_HOST` is not a
    /// loopback address: `0.0.0.0`, `::`, a routable address or a name).
    public var listensOffLoopback: Bool { !LoopbackHost.contains(host) }

    /// The startup warnings about what the listener exposes to the network, one sentence each,
    /// naming the setting: API keys sent in clear (off loopback without TLS: `/v1` takes keys
    /// whether or not `ADMIN_TOKEN` is set), and `/metrics` open to anyone.
    public func exposureWarnings() -> [String] {
        guard listensOffLoopback else { return [] }
        var warnings: [String] = []
        if tls == nil {
            warnings.append(
                "SUBSCRIPTIOND_HOST is \(host), off loopback, without TLS_CERT_FILE / TLS_KEY_FILE: API keys (ADMIN_TOKEN among them) and subscriber data cross the network in clear; serve HTTPS with TLS_CERT_FILE and TLS_KEY_FILE, or listen on 127.0.0.1 behind a TLS proxy"
            )
        }
        if metricsToken == nil {
            warnings.append(
                "METRICS_TOKEN is not set while SUBSCRIPTIOND_HOST is \(host), off loopback: /metrics is open to anyone who can reach it; set METRICS_TOKEN or listen on 127.0.0.1"
            )
        }
        return warnings
    }
}
