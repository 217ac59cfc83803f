import Access

extension AppScope {
    /// Refuses (403) an app the principal does not see.
    func require(_ bundleID: String) throws {
        guard contains(bundleID) else { throw UseCaseError.forbidden("the key does not see the app \(bundleID)") }
    }
}
