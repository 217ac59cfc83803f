import HTTPTypes
import Hummingbird

/// The headers every console answer carries: a Content-Security-Policy that allows only the
/// console's own stylesheet and forms (no script, no frame, no other origin), and the usual
/// companions. Pages are never cached: they show customers' data.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// `headers` with the console's security headers set.
    static func apply(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "no-referrer"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        headers[HTTPField.Name("Permissions-Policy")!] = "camera=(), microphone=(), geolocation=(), payment=()"
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
