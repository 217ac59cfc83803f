import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation

/// `subscriptionctl retention images list|upload|delete`.
struct RetentionImagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "List, upload and delete the images retention messages show (PNG, reviewed by Apple).",
        subcommands: [RetentionImagesListCommand.self, RetentionImagesUploadCommand.self, RetentionImagesDeleteCommand.self]
    )
}

/// `subscriptionctl retention images list`.
struct RetentionImagesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Every uploaded image, Apple's review state and its size."
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    func run() async throws {
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            let environment = target.appStoreEnvironment
            let images = try await client.retentionImages(environment: environment, logger: session.logger)
            if options.json {
                try Output.json(
                    RetentionImagesDocument(
                        app: client.bundleID, environment: environment.rawValue,
                        images: images.map { .init(imageIdentifier: $0.identifier, state: $0.stateRaw, size: $0.sizeRaw) }))
                return
            }
            Output.line("\(images.count) image\(images.count == 1 ? "" : "s") of \(client.bundleID) (\(environment.rawValue))")
            guard !images.isEmpty else { return }
            var table = Table("IMAGE", "STATE", "SIZE")
            for image in images {
                table.append([image.identifier, RetentionMessageReport.painted(image.stateRaw ?? "-"), image.sizeRaw ?? "-"])
            }
            Output.line(table.render())
        }
    }
}

/// `subscriptionctl retention images upload FILE.png [--id UUID] [--size full-size|bullet-point]`.
struct RetentionImagesUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a PNG image; prints its identifier.",
        discussion: """
            Apple takes PNG files without transparency: FULL_SIZE images are 3840 pixels wide and \
            160 to 2160 high, shown above a message's body; BULLET_POINT images are bullet icons. \
            Without --id a new UUID is made and printed.

            Example:
              subscriptionctl retention images upload banner.png --size full-size
            """
    )

    /// The largest file read.
    static let maximumBytes = 8 << 20

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    @Argument(help: "The PNG file.")
    var file: String

    @Option(help: ArgumentHelp("The image identifier (a UUID; a new one when omitted).", valueName: "uuid"))
    var id: String?

    @Option(help: "full-size (default) or bullet-point.")
    var size = "full-size"

    func validate() throws {
        if let id, UUID(uuidString: id) == nil { throw ValidationError("--id must be a UUID, got '\(id)'") }
        guard imageSize != nil else { throw ValidationError("--size must be full-size or bullet-point, got '\(size)'") }
    }

    private var imageSize: RetentionImageSize? {
        RetentionImageSize(rawValue: size.uppercased().replacingOccurrences(of: "-", with: "_"))
    }

    func run() async throws {
        let png = try Self.read(file)
        let identifier = id.flatMap(UUID.init(uuidString:)) ?? UUID()
        try await APICommandExecution.run { session in
            let client = try session.client(app: target.app)
            let environment = target.appStoreEnvironment
            try await client.uploadRetentionImage(identifier, png: png, size: imageSize, environment: environment, logger: session.logger)
            let text = identifier.uuidString.lowercased()
            if options.json {
                try Output.json(RetentionUploadDocument(identifier: text, app: client.bundleID, environment: environment.rawValue))
            } else {
                Output.line(text)
                Output.line("uploaded image \(text) for \(client.bundleID) (\(environment.rawValue)); Apple reviews it before it is shown")
            }
        }
    }

    /// The file's bytes: a PNG of at most `maximumBytes`, else one line and exit 2.
    private static func read(_ path: String) throws -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = (attributes?[.size] as? NSNumber)?.intValue else { throw CommandFailure.usage("cannot read \(path)") }
        guard size <= maximumBytes else { throw CommandFailure.usage("\(path) has \(size) bytes; at most \(maximumBytes) are sent") }
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure.usage("cannot read \(path)") }
        let bytes = Array(data)
        guard bytes.starts(with: AppStoreAPIClient.pngSignature) else {
            throw CommandFailure.usage("\(path) is not a PNG file: Apple takes PNG only")
        }
        return bytes
    }
}

/// `subscriptionctl retention images delete UUID`.
struct RetentionImagesDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an image (exit 1 when Apple has none such, or a message still shows it)."
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var target: RetentionTarget

    @Argument(help: "The image identifier.")
    var identifier: String

    func run() async throws {
        try await target.delete("image", identifier) { client, uuid, environment, logger in
            try await client.deleteRetentionImage(uuid, environment: environment, logger: logger)
        }
    }
}

/// `retention images list --json`.
struct RetentionImagesDocument: Encodable {
    let app: String
    let environment: String
    let images: [Item]

    struct Item: Encodable {
        let imageIdentifier: String
        let state: String?
        let size: String?

        enum CodingKeys: String, CodingKey {
            case imageIdentifier = "image_identifier", state, size
        }
    }
}
