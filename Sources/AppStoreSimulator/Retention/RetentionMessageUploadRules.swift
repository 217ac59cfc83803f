import Foundation

/// Apple's rules for an `UploadMessageRequestBody`, checked in Apple's order of fields.
enum RetentionMessageUploadRules {
    /// The images a valid body names: its image (`FULL_SIZE`) and its bullet points' icons
    /// (`BULLET_POINT`), identifiers lower-cased; throws Apple's 400 for the first broken rule.
    static func images(in body: [UInt8]) throws(APIError) -> [(identifier: String, size: String)] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let header = object["header"] as? String, let text = object["body"] as? String
        else { throw .invalidRequest }
        guard header.count <= 66 else { throw .headerTooLong }
        guard text.count <= 144 else { throw .bodyTooLong }
        var images: [(identifier: String, size: String)] = []
        if let image = object["image"], !(image is NSNull) {
            guard let image = image as? [String: Any], let id = image["imageIdentifier"] as? String,
                let altText = image["altText"] as? String,
                let uuid = UUID(uuidString: id)
            else { throw .invalidRequest }
            guard altText.count <= 150 else { throw .altTextTooLong }
            images.append((uuid.uuidString.lowercased(), "FULL_SIZE"))
        }
        if let position = object["headerPosition"], !(position is NSNull) {
            guard let position = position as? String, ["ABOVE_BODY", "ABOVE_IMAGE"].contains(position) else { throw .invalidRequest }
            guard position == "ABOVE_BODY" || !images.isEmpty else { throw .aboveImageNeedsImage }
        }
        if let points = object["bulletPoints"], !(points is NSNull) {
            guard let points = points as? [Any] else { throw .invalidRequest }
            guard points.count <= 5 else { throw .tooManyBulletPoints }
            for point in points {
                guard let point = point as? [String: Any], let text = point["text"] as? String, let altText = point["altText"] as? String,
                    let id = point["imageIdentifier"] as? String, let uuid = UUID(uuidString: id)
                else { throw .invalidRequest }
                guard text.count <= 66 else { throw .bulletPointTooLong }
                guard altText.count <= 150 else { throw .altTextTooLong }
                images.append((uuid.uuidString.lowercased(), "BULLET_POINT"))
            }
        }
        return images
    }
}
