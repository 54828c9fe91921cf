import Mustache

/// A module's Mustache templates, parsed once. Values are HTML-escaped (`{{name}}`); only HTML the server
/// rendered itself is inserted raw (`{{{name}}}`). A template that does not parse makes every render of it
/// throw, naming the template (the tests parse them all).
public struct TemplateSet: Sendable {
    private let library: MustacheLibrary
    private let problems: [String: String]

    /// Parses `templates` (name → Mustache text); they can include each other as partials (`{{> name}}`).
    public init(_ templates: [String: String]) {
        var library = MustacheLibrary()
        var problems: [String: String] = [:]
        for (name, text) in templates {
            do {
                try library.register(text, named: name)
            } catch {
                problems[name] = "\(error)"
            }
        }
        self.library = library
        self.problems = problems
    }

    /// Renders template `name` with `value` (a struct's properties, a dictionary, arrays for sections).
    public func render(_ name: String, _ value: Any) throws(TemplateError) -> String {
        if let problem = problems[name] { throw TemplateError(template: name, message: "does not parse: \(problem)") }
        guard let text = library.render(value, withTemplate: name) else {
            throw TemplateError(template: name, message: "is not defined")
        }
        return text
    }

    /// Names of templates that did not parse, with why.
    public var parseProblems: [String: String] { problems }
}

/// A page template that cannot be rendered.
public struct TemplateError: Error, CustomStringConvertible {
    public var template: String
    public var message: String
    public var description: String { "template '\(template)' \(message)" }
}
