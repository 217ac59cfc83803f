import Access
import Foundation
import Store

/// Where console users are kept, with their audit rows (`ConsoleUserStore` in production).
public protocol ConsoleUserRepository: Sendable {
    /// Stores a user; throws `ConsoleUserStore.Failure.duplicateName` when the name is taken.
    func add(name: String, role: ConsoleRole, passwordHash: String, actor: String) async throws
    /// Removes a user; throws `ConsoleUserStore.Failure.unknownName` when there is none.
    func remove(name: String, actor: String) async throws
    /// Replaces a live user's password (its sessions end); throws `ConsoleUserStore.Failure.unknownName`.
    func setPassword(name: String, passwordHash: String, actor: String) async throws
    /// Every user ever added, oldest first.
    func list() async throws -> [ConsoleUserRecord]
}
