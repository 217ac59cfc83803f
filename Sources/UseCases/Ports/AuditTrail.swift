/// Where what principals did is recorded (`AuditLogStore` in production): one row per action,
/// naming who; `detail` never holds a secret.
public protocol AuditTrail: Sendable {
    func record(action: String, actor: String, appUserID: String?, detail: [String: String]) async throws
}
