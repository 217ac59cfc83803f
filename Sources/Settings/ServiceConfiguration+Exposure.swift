extension ServiceConfiguration {
    /// Whether the listener is reachable from other machines (`SUBSCRIPTIOND_HOST` is not a
    /// loopback address: `0.0.0.0`, `::`, a routable address or a name).
    public var listensOffLoopback: Bool { !LoopbackHost.contains(host) }

    /// The startup warnings about what the listener exposes to the network, one sentence each,
    /// naming the setting: bearer credentials sent in clear (off loopback without TLS while
    /// `hasCredentials`, the admin token today, API keys later), and `/metrics` open to anyone.
    public func exposureWarnings(hasCredentials: Bool) -> [String] {
        guard listensOffLoopback else { return [] }
        var warnings: [String] = []
        if tls == nil && hasCredentials {
            warnings.append(
                "SUBSCRIPTIOND_HOST is \(host), off loopback, without TLS_CERT_FILE / TLS_KEY_FILE while ADMIN_TOKEN is set: bearer tokens and subscriber data cross the network in clear; serve HTTPS with TLS_CERT_FILE and TLS_KEY_FILE, or listen on 127.0.0.1 behind a TLS proxy"
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
