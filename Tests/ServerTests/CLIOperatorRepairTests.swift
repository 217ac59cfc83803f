import Foundation
import Testing

extension CLIOperatorTests {
    @Suite("repair: replay and revalidate")
    struct Repair {
        @Test("replay: unknown ids change nothing (exit 1); --dead re-queues atomically and they end processed once upstream heals")
        func replay() async throws {
            try await OperatorFixture.with { fixture in
                let dead = try #require(
                    try await fixture.json(["notifications", "list", "--state", "dead"])["notifications"] as? [[String: Any]])
                let deadIDs = dead.compactMap { $0["id"] as? Int }
                #expect(deadIDs.count == 2)

                let unknown = try await fixture.ctl(["notifications", "replay", String(deadIDs[0]), "987654", "987655"])
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "subscriptionctl: no notification with ids 987654, 987655; nothing was replayed\n")
                #expect(try await fixture.service.stateCounts()["dead"] == 2)
                #expect(try await fixture.ctl(["notifications", "replay"]).status == 2)
                #expect(try await fixture.ctl(["notifications", "replay", "--dead", "1"]).status == 2)

                // Upstream heals: both receipts now verify.
                for id in [OperatorFixture.deadSecretID, OperatorFixture.deadReceiptID] {
                    let life = OperatorFixture.life(id)
                    fixture.answers.set(life.receiptToken, life.verifyAnswer)
                }
                let replayed = try await fixture.json(["notifications", "replay", "--dead"])
                #expect(replayed["replayed"] as? Int == 2)
                #expect(Set(replayed["ids"] as? [Int] ?? []) == Set(deadIDs))
                try await fixture.waitUntilNothingPending()
                for id in deadIDs {
                    let shown = try await fixture.json(["notifications", "show", String(id)])
                    #expect(shown["state"] as? String == "processed")
                    #expect(shown["attempts"] as? Int == 2, "attempts are kept across a replay")
                    #expect((shown["history"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["dead", "processed"])
                }
                #expect(try await fixture.json(["subscription", "show", OperatorFixture.deadSecretID])["status"] as? String == "active")

                let nothing = try await fixture.ctl(["notifications", "replay", "--dead"])
                #expect(nothing.stdout == "no dead notifications: nothing to replay\n")
                let again = try await fixture.ctl(["notifications", "replay", String(deadIDs[0])])
                #expect(again.status == 0)
                #expect(again.stdout.hasPrefix("replayed 1 notification: pending now"))
                try await fixture.waitUntilNothingPending()
                #expect(try await fixture.service.stateCounts()["dead"] == nil)
            }
        }

        @Test("revalidate: applies Apple's current answer, counts outcomes, records them; unknown ids exit 1, missing settings exit 2")
        func revalidate() async throws {
            try await OperatorFixture.with { fixture in
                let missingSettings = try await fixture.ctl(["revalidate", "--all"])
                #expect(missingSettings.status == 2)
                #expect(missingSettings.stderr.split(separator: "\n").count == 1)

                // Since the notifications: the upgraded customer was refunded, one receipt is now
                // refused for good, and the upstream cannot answer for another.
                var upgraded = OperatorFixture.life(OperatorFixture.upgradedID)
                upgraded.transactions[upgraded.transactions.count - 1]["cancellation_date_ms"] = NotificationBodies.ms(daysAgo(0.5))
                upgraded.transactions[upgraded.transactions.count - 1]["cancellation_reason"] = "1"
                fixture.answers.set(upgraded.receiptToken, upgraded.verifyAnswer)
                fixture.answers.set(OperatorFixture.life(OperatorFixture.trialID).receiptToken, ["status": 21010])
                fixture.answers.set(OperatorFixture.life(OperatorFixture.recoveredID).receiptToken, ["status": 21005])

                let summary = try await fixture.json(["revalidate", "--all"], environment: fixture.upstreamEnvironment)
                #expect(summary["total"] as? Int == 9)
                #expect(summary["verified"] as? Int == 7)
                #expect(summary["changed"] as? Int == 1)
                #expect(summary["retry_later"] as? Int == 1)
                #expect(summary["rejected"] as? Int == 1)
                #expect(summary["skipped"] as? Int == 0)
                #expect(summary["interrupted"] as? Bool == false)
                #expect(summary["resumed"] as? Bool == false)
                let change = try #require((summary["changes"] as? [[String: Any]])?.first)
                #expect(change["original_transaction_id"] as? String == OperatorFixture.upgradedID)
                #expect(change["old_status"] as? String == "active")
                #expect(change["new_status"] as? String == "revoked")
                let problems = try #require(summary["problems"] as? [[String: Any]])
                #expect(Set(problems.compactMap { $0["outcome"] as? String }) == ["retry_later", "rejected"])

                let story = try await fixture.json(["subscription", "show", OperatorFixture.upgradedID])
                #expect(story["status"] as? String == "revoked")
                #expect(story["revalidation_outcome"] as? String == "verified")
                #expect(story["revalidated_at"] is String)
                let rejected = try await fixture.json(["subscription", "show", OperatorFixture.trialID])
                #expect((rejected["revalidation_outcome"] as? String)?.hasPrefix("rejected: ") == true)
                let notRecorded = try await fixture.json(["subscription", "show", OperatorFixture.recoveredID])
                #expect(notRecorded["revalidated_at"] is NSNull)

                let unknown = try await fixture.ctl(
                    ["revalidate", OperatorFixture.cancelledID, "999"], environment: fixture.upstreamEnvironment)
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "subscriptionctl: no subscription with original_transaction_id 999; nothing was revalidated\n")
                let one = try await fixture.ctl(["revalidate", OperatorFixture.cancelledID], environment: fixture.upstreamEnvironment)
                #expect(one.status == 0)
                #expect(one.stdout.hasPrefix("revalidated 1 subscription in "))
                #expect(try await fixture.ctl(["revalidate"]).status == 2)
                #expect(try await fixture.ctl(["revalidate", "--all", "--concurrency", "0"]).status == 2)

                // The finished run is closed: the next --all starts over.
                let next = try await fixture.json(["revalidate", "--all"], environment: fixture.upstreamEnvironment)
                #expect(next["resumed"] as? Bool == false)
                #expect(next["total"] as? Int == 9)
            }
        }

        @Test("revalidate --all: Ctrl-C stops after the receipt in flight (exit 130), and the next run resumes where it stopped")
        func interruptAndResume() async throws {
            try await OperatorFixture.with { fixture in
                // Two quick answers, then one that hangs past the timeout: Ctrl-C arrives during it.
                fixture.verify.inject([.status(0, retryable: nil), .status(0, retryable: nil), .hang(.seconds(20))])
                let before = fixture.verify.requests.count
                let verify = fixture.verify
                let interrupted = try await OperatorProcess.interrupted(
                    ["revalidate", "--all", "--concurrency", "1", "--json"], databaseURL: fixture.service.databaseURL,
                    environment: fixture.upstreamEnvironment, when: { verify.requests.count >= before + 3 })
                #expect(interrupted.status == 130)
                #expect(interrupted.stderr.contains("stopping after the receipts in flight"))
                #expect(interrupted.stderr.contains("run `subscriptionctl revalidate --all` again to resume"))
                let first = try #require(try JSONSerialization.jsonObject(with: Data(interrupted.stdout.utf8)) as? [String: Any])
                #expect(first["interrupted"] as? Bool == true)
                #expect(first["verified"] as? Int == 2)
                #expect(first["retry_later"] as? Int == 1)
                #expect(first["total"] as? Int == 3)

                let resumed = try await fixture.json(["revalidate", "--all"], environment: fixture.upstreamEnvironment)
                #expect(resumed["resumed"] as? Bool == true)
                #expect(resumed["run_id"] as? Int == first["run_id"] as? Int)
                #expect(resumed["already_done"] as? Int == 2)
                #expect(resumed["total"] as? Int == 7)
                #expect(resumed["verified"] as? Int == 7)
                #expect(resumed["interrupted"] as? Bool == false)

                let fresh = try await fixture.json(["revalidate", "--all"], environment: fixture.upstreamEnvironment)
                #expect(fresh["resumed"] as? Bool == false)
                #expect(fresh["total"] as? Int == 9)
            }
        }
    }
}
