import AppStoreSignature
import Settings

extension AppCredentials {
    /// The signer of StoreKit's offer signatures with the app's In-App Purchase key (its App
    /// Store Server API key); nil when the app has none. Throws when the key cannot sign.
    func offerSigner() throws -> StoreKitOfferSigner? {
        guard let key = apiKey else { return nil }
        return try StoreKitOfferSigner(privateKeyPEM: key.privateKey.revealed, keyID: key.keyID, issuerID: key.issuerID, bundleID: bundleID)
    }
}
