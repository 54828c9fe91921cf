import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The part of the GPX and TCX readers that walks an XML document: it keeps the path of
/// element names (namespace prefixes dropped), collects the text of the element being closed,
/// and turns a parse failure into an ``ActivityFileError`` with its line.
class XMLDocumentReader: NSObject, XMLParserDelegate {
    let file: String
    /// Local names of the open elements, outermost first.
    private(set) var path: [String] = []
    private var text = ""
    private weak var parser: XMLParser?
    /// The first error the parser reported, where it reported it.
    private var firstError: (reason: String, line: Int)?

    init(file: String) {
        self.file = file
    }

    /// Parses `data`; returns the error that stopped it, if any (what was read before stays read).
    func parse(_ data: Data) -> ActivityFileError? {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        self.parser = parser
        let succeeded = parser.parse()
        guard let (reason, line) = firstError ?? (succeeded ? nil : (Self.reason(parser.parserError), parser.lineNumber)) else {
            return nil
        }
        return ActivityFileError(file: file, line: line, message: "malformed XML (\(reason)); the file is damaged, fix or export it again")
    }

    final func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if firstError == nil { firstError = (Self.reason(parseError), parser.lineNumber) }
    }

    /// Plain words for the parser's error codes (libxml2's numbers, which NSXMLParserError
    /// shares; Foundation on Linux gives only the number).
    private static let reasons: [Int: String] = [
        4: "the document is empty",
        5: "the document ends before its elements are closed (is the file cut short?)",
        9: "a character XML does not allow",
        22: "a bare '&' (write &amp;)", 23: "a bare '&' (write &amp;)", 26: "an undeclared entity",
        38: "a '<' inside an attribute value", 39: "a malformed attribute", 40: "a malformed attribute",
        41: "an attribute without a value", 42: "an attribute given twice",
        68: "a tag without a name", 73: "a tag that is not closed with '>' (is the file cut short?)",
        76: "an end tag that does not match the element it closes", 77: "a tag that is not finished",
        85: "elements that are not properly nested", 86: "content after the root element",
    ]

    private static func reason(_ error: (any Error)?) -> String {
        guard let code = error.map({ ($0 as NSError).code }) else { return "unknown XML error" }
        return reasons[code] ?? "XML parser error \(code)"
    }

    /// The line the parser is at.
    var line: Int { parser?.lineNumber ?? 0 }

    /// Called when an element opens, after it was pushed onto `path`.
    func open(_ name: String, attributes: [String: String]) {}

    /// Called when an element closes, before it is popped from `path`, with its trimmed text.
    func close(_ name: String, text: String) {}

    /// Whether the text inside the current element is wanted (saves collecting whole documents).
    func wantsText() -> Bool { true }

    final func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                      qualifiedName: String?, attributes: [String: String] = [:]) {
        let name = Self.localName(elementName)
        path.append(name)
        text = ""
        open(name, attributes: attributes)
    }

    final func parser(_ parser: XMLParser, foundCharacters string: String) {
        if wantsText() { text += string }
    }

    final func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let name = Self.localName(elementName)
        close(name, text: text.trimmingCharacters(in: .whitespacesAndNewlines))
        text = ""
        if !path.isEmpty { path.removeLast() }
    }

    /// `gpxtpx:hr` → `hr`.
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The path below the element at `depth` (its index in `path`), joined with "/".
    func relativePath(below depth: Int) -> String {
        path.count > depth + 1 ? path[(depth + 1)...].joined(separator: "/") : ""
    }
}
