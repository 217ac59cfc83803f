import Foundation
import Mustache
import Store

/// The console's pages: the Mustache templates of `Templates/console` (beside the checkout,
/// or in `share/subscriptiond` of an installation) and its stylesheet, read once at startup.
/// Every `{{value}}` is HTML-escaped by the templates; only server-drawn SVG is inserted raw.
public struct ConsoleTemplates: Sendable {
    /// The templates by name (file name without `.mustache`).
    let library: MustacheLibrary
    /// `console.css`.
    let stylesheet: String

    /// Reads the templates from the first `Templates/console` directory found (or `directory`).
    public static func load(directory: String? = nil) async throws -> ConsoleTemplates {
        let candidates = directory.map { [URL(fileURLWithPath: $0)] } ?? InstalledResources.candidates("Templates/console")
        guard
            let found = candidates.first(where: {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("layout.mustache").path)
            })
        else {
            throw ConsoleTemplatesError(
                "the console's templates (Templates/console) were not found beside the executable or in share/subscriptiond; CONSOLE=off serves no console"
            )
        }
        let library = try await MustacheLibrary(directory: found.path)
        let stylesheet = try String(contentsOf: found.appendingPathComponent("console.css"), encoding: .utf8)
        return ConsoleTemplates(library: library, stylesheet: stylesheet)
    }

    /// The page `template` rendered for `object`.
    func render(_ object: Any, template: String) throws -> String {
        guard let html = library.render(object, withTemplate: template) else {
            throw ConsoleTemplatesError("the console has no template \(template)")
        }
        return html
    }
}

/// The console's templates are missing or broken.
public struct ConsoleTemplatesError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
