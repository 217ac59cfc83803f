import Subscriptions
import Testing

@Suite("Purchase ownership: who a purchase belongs to under each link policy")
struct PurchaseOwnershipTests {
    typealias Change = PurchaseOwnership.Change

    @Test("a first claim links the claimant under every policy")
    func firstClaim() throws {
        for policy in LinkPolicy.allCases {
            #expect(try PurchaseOwnership.change(policy: policy, claimant: "a", token: nil, owners: []) == Change(link: ["a"]))
        }
    }

    @Test("a second user's claim: transfer moves it, share adds, refuse is refused; the owner's own claim changes nothing")
    func secondClaim() throws {
        #expect(
            try PurchaseOwnership.change(policy: .transfer, claimant: "b", token: nil, owners: ["a"]) == Change(link: ["b"], unlink: ["a"]))
        #expect(try PurchaseOwnership.change(policy: .share, claimant: "b", token: nil, owners: ["a"]) == Change(link: ["b"]))
        #expect(throws: PurchaseOwnership.Refusal.self) {
            try PurchaseOwnership.change(policy: .refuse, claimant: "b", token: nil, owners: ["a"])
        }
        for policy in LinkPolicy.allCases {
            #expect(try PurchaseOwnership.change(policy: policy, claimant: "a", token: nil, owners: ["a", "c"]).isEmpty)
        }
        #expect(
            try PurchaseOwnership.change(policy: .transfer, claimant: "b", token: nil, owners: ["c", "a"])
                == Change(link: ["b"], unlink: ["a", "c"]))
    }

    @Test("a token subscriptiond handed out: its user owns the purchase under every policy, and anyone else's claim is refused")
    func issuedToken() throws {
        for policy in LinkPolicy.allCases {
            #expect(throws: PurchaseOwnership.Refusal.self) {
                try PurchaseOwnership.change(policy: policy, claimant: "b", token: .issued(to: "a"), owners: [])
            }
            #expect(try PurchaseOwnership.change(policy: policy, claimant: nil, token: .issued(to: "a"), owners: []) == Change(link: ["a"]))
            #expect(try PurchaseOwnership.change(policy: policy, claimant: "a", token: .issued(to: "a"), owners: ["a"]).isEmpty)
        }
        // Someone linked before the token was known: under share they stay, otherwise the token's user takes it.
        #expect(
            try PurchaseOwnership.change(policy: .transfer, claimant: nil, token: .issued(to: "a"), owners: ["b"])
                == Change(link: ["a"], unlink: ["b"]))
        #expect(
            try PurchaseOwnership.change(policy: .refuse, claimant: "a", token: .issued(to: "a"), owners: ["b"])
                == Change(link: ["a"], unlink: ["b"]))
        #expect(try PurchaseOwnership.change(policy: .share, claimant: nil, token: .issued(to: "a"), owners: ["b"]) == Change(link: ["a"]))
    }

    @Test("a token it did not hand out names the user of that id only while nobody owns or claims the purchase (or under share)")
    func userIDToken() throws {
        let token = PurchaseOwnership.Token.userID("7d1f0c2e-0000-4000-8000-000000000001")
        for policy in LinkPolicy.allCases {
            #expect(
                try PurchaseOwnership.change(policy: policy, claimant: nil, token: token, owners: [])
                    == Change(link: ["7d1f0c2e-0000-4000-8000-000000000001"], linkedByHint: ["7d1f0c2e-0000-4000-8000-000000000001"]))
            #expect(
                try PurchaseOwnership.change(policy: policy, claimant: "7d1f0c2e-0000-4000-8000-000000000001", token: token, owners: [])
                    == Change(link: ["7d1f0c2e-0000-4000-8000-000000000001"]))
        }
        // Never a reason to refuse or unlink: the app may use its own UUIDs for something else.
        #expect(try PurchaseOwnership.change(policy: .transfer, claimant: "b", token: token, owners: []) == Change(link: ["b"]))
        #expect(try PurchaseOwnership.change(policy: .refuse, claimant: "b", token: token, owners: []) == Change(link: ["b"]))
        #expect(try PurchaseOwnership.change(policy: .transfer, claimant: nil, token: token, owners: ["b"]).isEmpty)
        #expect(
            try PurchaseOwnership.change(policy: .share, claimant: "b", token: token, owners: [])
                == Change(link: ["7d1f0c2e-0000-4000-8000-000000000001", "b"], linkedByHint: ["7d1f0c2e-0000-4000-8000-000000000001"]))
    }

    @Test(
        "a token equal to an existing user's id binds like a handed-out one: under transfer another user's claim is refused, and the owner takes it back"
    )
    func existingUserToken() throws {
        let owner = "7d1f0c2e-0000-4000-8000-000000000001"
        for policy in LinkPolicy.allCases {
            #expect(throws: PurchaseOwnership.Refusal.self) {
                try PurchaseOwnership.change(policy: policy, claimant: "thief", token: .existingUser(owner), owners: [owner])
            }
            #expect(throws: PurchaseOwnership.Refusal.self) {
                try PurchaseOwnership.change(policy: policy, claimant: "thief", token: .existingUser(owner), owners: [])
            }
        }
        #expect(
            try PurchaseOwnership.change(policy: .transfer, claimant: nil, token: .existingUser(owner), owners: ["thief"])
                == Change(link: [owner], unlink: ["thief"]))
    }

    @Test("a forgotten user's token names nobody: nothing links through it, and a claimant links as if there were no token")
    func forgottenToken() throws {
        for policy in LinkPolicy.allCases {
            #expect(try PurchaseOwnership.change(policy: policy, claimant: nil, token: .forgotten, owners: []).isEmpty)
            #expect(try PurchaseOwnership.change(policy: policy, claimant: "b", token: .forgotten, owners: []) == Change(link: ["b"]))
        }
    }

    @Test("facts without a claimant or a token change nothing")
    func nothing() throws {
        for policy in LinkPolicy.allCases {
            #expect(try PurchaseOwnership.change(policy: policy, claimant: nil, token: nil, owners: ["a"]).isEmpty)
            #expect(try PurchaseOwnership.change(policy: policy, claimant: nil, token: nil, owners: []).isEmpty)
        }
    }
}
