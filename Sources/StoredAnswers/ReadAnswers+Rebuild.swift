import Foundation
import Store

extension ReadAnswers {
    /// What `rebuild` did.
    public struct RebuildCount: Sendable, Equatable {
        /// Subscription answers stored.
        public var subscriptions = 0
        /// Subscriber answers (with group usage) stored.
        public var subscribers = 0

        /// Creates a count.
        public init(subscriptions: Int = 0, subscribers: Int = 0) {
            self.subscriptions = subscriptions
            self.subscribers = subscribers
        }
    }

    /// Computes and stores the answer of every subscription and subscriber, `batchSize` keys
    /// per read statement and per write, `concurrency` batches at a time (`subscriptionctl
    /// answers rebuild`): after a bulk load, so that the first reads find their answers.
    ///
    /// Reads do the same one key at a time, so this is never needed for correctness; an
    /// answer that changes meanwhile is stored unserved, as a read's would be.
    public func rebuild(
        batchSize: Int, concurrency: Int, now: @escaping @Sendable () -> Date = Date.init,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> RebuildCount {
        var count = RebuildCount()
        count.subscriptions = try await forEachBatch(batchSize: batchSize, concurrency: concurrency, keys: store.subscriptionKeys) { ids in
            let stamps = try await store.subscriptionStamps(ids)
            var answers: [SubscriptionAnswer] = []
            for (id, read) in try await reader.subscriptionReads(originalTransactionIDs: ids, now: now()) {
                guard let stamp = stamps[id] else { continue }
                let catalog = try await store.catalog(generation: stamp.catalogGeneration)
                answers.append(Self.answer(originalTransactionID: id, read, catalog: catalog, pricing: pricing, stamp: stamp))
            }
            try await store.store(answers, lockWait: .configured)
            progress(ids.count)
            return answers.count
        }
        count.subscribers = try await forEachBatch(batchSize: batchSize, concurrency: concurrency, keys: store.subscriberKeys) { users in
            let stamps = try await store.subscriberStamps(users)
            let at = now()
            var answers: [SubscriberAnswer] = []
            for (user, read) in try await reader.subscriberReads(appUserIDs: users, now: at) where read.isStorable {
                guard let stamp = stamps[user] else { continue }
                let catalog = try await store.catalog(generation: stamp.catalogGeneration)
                answers.append(
                    Self.answer(
                        appUserID: user, read, catalog: catalog, policies: policies, pricing: pricing, stamp: stamp, now: at))
            }
            try await store.store(answers, lockWait: .configured)
            progress(users.count)
            return answers.count
        }
        return count
    }

    /// Pages through `keys` and runs `body` on each page, at most `concurrency` at once;
    /// returns the sum of what `body` returned.
    private func forEachBatch(
        batchSize: Int, concurrency: Int,
        keys: @escaping @Sendable (String, Int) async throws -> [String],
        _ body: @escaping @Sendable ([String]) async throws -> Int
    ) async throws -> Int {
        let batchSize = max(1, batchSize)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            var total = 0
            var inFlight = 0
            var after = ""
            while true {
                let page = try await keys(after, batchSize)
                guard let last = page.last else { break }
                after = last
                if inFlight >= max(1, concurrency), let done = try await group.next() {
                    total += done
                    inFlight -= 1
                }
                group.addTask { try await body(page) }
                inFlight += 1
            }
            for try await done in group { total += done }
            return total
        }
    }
}
