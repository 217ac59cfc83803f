import Access
import Foundation
import Store

/// Where console sessions are kept (`ConsoleSessionStore` in production): by the digest of
/// their cookie's id, shared by every process.
public protocol ConsoleSessionRepository: Sendable {
    /// The user `name` if it may sign in (added, not removed), or nil.
    func activeUser(named name: String) async throws -> ConsoleUserRecord?
    /// Stores a new session; drops those idle longer than `idle`.
    func create(idDigest: [UInt8], userName: String, csrfToken: String, idle: Duration) async throws
    /// The live session `idDigest` (used within `idle`, its user not removed), marked used now.
    func resume(idDigest: [UInt8], idle: Duration) async throws -> ConsoleSessionStore.Stored?
    /// Ends the session `idDigest`.
    func end(idDigest: [UInt8]) async throws
}
