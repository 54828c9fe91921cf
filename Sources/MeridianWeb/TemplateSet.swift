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
        guard let text = library.render(Self.tree(value), withTemplate: name) else {
            throw TemplateError(template: name, message: "is not defined")
        }
        return text
    }

    /// The value as dictionaries and arrays, reflected once: Mustache then looks names up in a dictionary instead of
    /// reflecting a struct's every property again for each name (which made large pages slow). An absent optional
    /// is left out, as Mustache treats it.
    static func tree(_ value: Any) -> Any {
        switch value {
        case is String, is Bool, is Int, is Double, is [String: Any]:
            return value
        case let array as [Any]:
            return array.map(tree)
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .struct, .class:
                var members: [String: Any] = [:]
                for child in mirror.children {
                    guard let label = child.label, let member = unwrapped(child.value) else { continue }
                    members[label] = tree(member)
                }
                return members
            case .optional:
                return unwrapped(value).map(tree) ?? value
            default:
                return value
            }
        }
    }

    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
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
