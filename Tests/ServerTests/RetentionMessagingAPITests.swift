import AppStore
import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import Testing

/// Apple's Retention Messaging API through subscriptiond's libcurl client against appstore-sim:
/// messages and images through Apple's review, default messages, Apple's refusals, and the
/// realtime URL per environment.
@Suite("Retention Messaging API: messages, images, review, realtime URL against appstore-sim")
struct RetentionMessagingAPITests {
    @Test("a message and its image go PENDING → reviewed; default messages need both approved; deletes follow Apple's rules")
    func messagesThroughReview() async throws {
        try await RetentionWorld.with(seed: 20_261_201) { world in
            let client = world.client
            world.simulator.setRetentionReview(.manual)
            let image = UUID()
            let message = UUID()
            try await client.uploadRetentionImage(image, png: RetentionWorld.png, size: .fullSize)
            try await client.uploadRetentionMessage(
                message,
                RetentionMessageContent(
                    header: "Before you go", body: "Keep Pro for half price this month.",
                    image: RetentionMessageImage(imageIdentifier: image, altText: "A happy customer"), headerPosition: .aboveImage))
            #expect(try await client.retentionMessages().map(\.state) == [.pending])
            #expect(try await client.retentionMessages().first?.uuid == message)
            let images = try await client.retentionImages()
            #expect(images.map(\.state) == [.pending] && images.map(\.size) == [.fullSize])

            // The same identifier again is Apple's 409 MessageAlreadyExistsError.
            await expectAppleRejection(409, 4_090_001) {
                try await client.uploadRetentionMessage(message, RetentionMessageContent(header: "Again", body: "Again"))
            }
            // Not approved yet: no default message.
            await expectAppleRejection(403, 4_030_017) {
                try await client.configureDefaultRetentionMessage(
                    productID: "com.example.pro.monthly", locale: "en-US", messageIdentifier: message)
            }

            // The reviewer approves the message (through the control endpoint) and rejects the image.
            let approved = try await world.control("/control/retention/review", ["identifier": message.uuidString, "state": "APPROVED"])
            #expect(approved.status == 200, "\(approved.text)")
            #expect(world.simulator.reviewRetentionUpload(image.uuidString, as: .rejected))
            #expect(
                try await world.control("/control/retention/review", ["identifier": UUID().uuidString, "state": "APPROVED"]).status == 404)
            #expect(try await client.retentionMessages().map(\.stateRaw) == ["APPROVED"])
            #expect(try await client.retentionImages().map(\.stateRaw) == ["REJECTED"])
            await expectAppleRejection(403, 4_030_018) {
                try await client.configureDefaultRetentionMessage(
                    productID: "com.example.pro.monthly", locale: "en-US", messageIdentifier: message)
            }
            world.simulator.reviewRetentionUpload(image.uuidString, as: .approved)
            try await client.configureDefaultRetentionMessage(
                productID: "com.example.pro.monthly", locale: "en-US", messageIdentifier: message)
            #expect(
                try await client.defaultRetentionMessage(productID: "com.example.pro.monthly", locale: "en-US")
                    == message.uuidString.lowercased())
            await expectAppleRejection(404, 4_040_020) {
                _ = try await client.defaultRetentionMessage(productID: "com.example.pro.yearly", locale: "en-US")
            }

            // Apple keeps each environment apart.
            #expect(try await client.retentionMessages(environment: .sandbox).isEmpty)

            // An image a message shows cannot go; the message can, once; then the image.
            await expectAppleRejection(403, 4_030_019) { try await client.deleteRetentionImage(image) }
            try await client.deleteRetentionMessage(message)
            await expectAppleRejection(404, 4_040_015) { try await client.deleteRetentionMessage(message) }
            await expectAppleRejection(404, 4_040_020) {
                try await client.deleteDefaultRetentionMessage(productID: "com.example.pro.monthly", locale: "en-US")
            }
            try await client.deleteRetentionImage(image)
            await expectAppleRejection(404, 4_040_014) { try await client.deleteRetentionImage(image) }
            #expect(try await client.retentionMessages().isEmpty)
            #expect(try await client.retentionImages().isEmpty)
        }
    }

    @Test("under a review delay an upload is PENDING, then APPROVED once the delay has passed")
    func reviewDelay() async throws {
        try await RetentionWorld.with(seed: 20_261_202) { world in
            let set = try await world.control("/control/retention", ["approve_after_ms": 3_000])
            #expect(set.status == 200, "\(set.text)")
            let message = UUID()
            try await world.client.uploadRetentionMessage(message, RetentionMessageContent(header: "Stay", body: "We have news."))
            #expect(try await world.client.retentionMessages().map(\.state) == [.pending])
            let deadline = ContinuousClock.now + .seconds(20)
            var state = RetentionReviewState.pending
            while state == .pending, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(250))
                state = try await world.client.retentionMessages().first?.state ?? .pending
            }
            #expect(state == .approved)
        }
    }

    @Test("Apple's limits are refused before sending; an unknown image, a bad image size and a bad locale are Apple's 400/404")
    func refusals() async throws {
        try await RetentionWorld.with(seed: 20_261_203) { world in
            let client = world.client
            let tooLong = RetentionMessageContent(header: String(repeating: "h", count: 67), body: "Body")
            await #expect(throws: AppStoreAPIError.self) { try await client.uploadRetentionMessage(UUID(), tooLong) }
            await #expect(throws: AppStoreAPIError.self) { try await client.uploadRetentionImage(UUID(), png: Array("GIF89a".utf8)) }
            let bullet = UUID()
            try await client.uploadRetentionImage(bullet, png: RetentionWorld.png, size: .bulletPoint)
            // A bullet-point image cannot be a message's full-size image.
            await expectAppleRejection(400, 4_000_216) {
                try await client.uploadRetentionMessage(
                    UUID(),
                    RetentionMessageContent(header: "H", body: "B", image: RetentionMessageImage(imageIdentifier: bullet, altText: "icon")))
            }
            await expectAppleRejection(404, 4_040_014) {
                try await client.uploadRetentionMessage(
                    UUID(),
                    RetentionMessageContent(
                        header: "H", body: "B",
                        bulletPoints: [RetentionBulletPoint(text: "Offline", imageIdentifier: UUID(), altText: "icon")]))
            }
            try await client.uploadRetentionMessage(
                UUID(),
                RetentionMessageContent(
                    header: "H", body: "B", bulletPoints: [RetentionBulletPoint(text: "Offline", imageIdentifier: bullet, altText: "icon")])
            )
            await expectAppleRejection(400, 4_000_164) {
                try await client.configureDefaultRetentionMessage(
                    productID: "com.example.pro.monthly", locale: "e", messageIdentifier: UUID())
            }
            #expect(world.simulator.stats().api["http_400", default: 0] == 2)
        }
    }

    @Test("the realtime URL is kept per environment; production needs a passing performance test first")
    func realtimeURLPerEnvironment() async throws {
        try await RetentionWorld.with(seed: 20_261_204) { world in
            let client = world.client
            await expectAppleRejection(404, 4_040_021) { _ = try await client.realtimeURL(environment: .sandbox) }
            try await client.configureRealtimeURL("https://subs.example.com/retention/appstore", environment: .sandbox)
            #expect(try await client.realtimeURL(environment: .sandbox) == "https://subs.example.com/retention/appstore")
            await expectAppleRejection(404, 4_040_021) { _ = try await client.realtimeURL(environment: .production) }
            await expectAppleRejection(403, 4_030_026) {
                try await client.configureRealtimeURL("https://subs.example.com/retention/appstore", environment: .production)
            }
            await #expect(throws: AppStoreAPIError.self) { try await client.configureRealtimeURL("not a url", environment: .sandbox) }
            try await client.deleteRealtimeURL(environment: .sandbox)
            await expectAppleRejection(404, 4_040_021) { _ = try await client.realtimeURL(environment: .sandbox) }
            await expectAppleRejection(404, 4_040_021) { try await client.deleteRealtimeURL(environment: .sandbox) }
        }
    }
}
