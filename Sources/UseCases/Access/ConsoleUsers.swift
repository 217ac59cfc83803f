import Access
import Foundation
import Store

/// Adding, listing and removing console users (`subscriptionctl console-user`), each change
/// audited under the principal that made it. Passwords are kept only as bcrypt hashes.
public struct ConsoleUsers: Sendable {
    private let repository: any ConsoleUserRepository
    /// bcrypt's cost (tests lower it).
    private let cost: UInt8

    public init(repository: any ConsoleUserRepository, cost: UInt8 = ConsolePassword.cost) {
        self.repository = repository
        self.cost = cost
    }

    /// Adds `name` with `role` and `password`.
    public func add(name: String, role: ConsoleRole, password: String, by principal: Principal) async throws {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("adding console users needs the admin scope") }
        try Self.check(name: name)
        if let problem = ConsolePassword.problem(password) { throw UseCaseError.malformed(problem) }
        do {
            try await repository.add(
                name: name, role: role, passwordHash: ConsolePassword.hash(password, cost: cost), actor: principal.actor)
        } catch ConsoleUserStore.Failure.duplicateName(let taken) {
            throw UseCaseError.alreadyExists("a console user named \(taken) exists already (names of removed users stay taken)")
        }
    }

    /// Removes `name`: it can no longer sign in.
    public func remove(name: String, by principal: Principal) async throws {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("removing console users needs the admin scope") }
        do {
            try await repository.remove(name: name, actor: principal.actor)
        } catch ConsoleUserStore.Failure.unknownName(let unknown) {
            throw UseCaseError.notFound("no console user is named \(unknown)")
        }
    }

    /// Gives `name` a new `password`; the user's sessions end.
    public func setPassword(name: String, password: String, by principal: Principal) async throws {
        guard principal.may(.admin) else { throw UseCaseError.forbidden("changing console passwords needs the admin scope") }
        if let problem = ConsolePassword.problem(password) { throw UseCaseError.malformed(problem) }
        do {
            try await repository.setPassword(name: name, passwordHash: ConsolePassword.hash(password, cost: cost), actor: principal.actor)
        } catch ConsoleUserStore.Failure.unknownName(let unknown) {
            throw UseCaseError.notFound("no console user is named \(unknown)")
        }
    }

    /// Every user ever added, oldest first.
    public func list() async throws -> [ConsoleUserRecord] {
        try await repository.list()
    }

    /// Names are what the audit log shows (`console:<name>`): a letter or digit, then up to 63
    /// letters, digits, dots, dashes, underscores or @.
    static func check(name: String) throws {
        guard PrincipalName.isValid(name, extra: "@") else {
            throw UseCaseError.malformed(
                "console user name \"\(name)\" must be 1 to 64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit"
            )
        }
    }
}
