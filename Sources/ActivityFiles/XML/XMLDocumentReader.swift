import CLibXML2
import Foundation

/// The part of the GPX and TCX readers that walks an XML document: libxml2's SAX parser fed a
/// chunk at a time (a gzip-compressed document as it decompresses), so that no copy of the whole
/// document is ever held. It keeps the path of element names (namespace prefixes dropped), collects
/// the text of the element being closed, refuses nesting deeper than ``maximumDepth`` and turns a
/// parse failure into an ``ActivityFileError`` with its line.
///
/// Only XML's five predefined entities are known: a DTD's entities are neither loaded nor expanded.
class XMLDocumentReader {
    let file: String
    /// Local names of the open elements, outermost first.
    private(set) var path: [String] = []
    private var text: [UInt8] = []
    private var context: xmlParserCtxtPtr?
    /// The first problem that stopped the parser, where it stopped it.
    private var failure: (reason: String, line: Int)?
    /// The samples read so far (``countSample()``).
    private var sampleCount = 0

    /// The deepest element nesting read (real GPX and TCX files nest about 8 deep).
    static let maximumDepth = 64
    /// The most text kept of one element (longer text is cut: no value read from these files is near it).
    static let maximumText = 64 * 1024
    /// The bytes handed to libxml2 at once. Small pieces keep libxml2's own buffer small and under its
    /// 10 MB look-ahead limit, which a whole document handed over at once passes (libxml2 then says
    /// "Huge input lookup", error 1) as soon as it is longer than that.
    static let chunkSize = 64 * 1024

    init(file: String) {
        self.file = file
    }

    /// Parses `input`: bytes in memory, plain or gzip-compressed (decompressing at most
    /// `Gzip.maximumDecompressedSize` bytes), or a plain file read a chunk at a time; asks `isCancelled`
    /// between chunks and stops when it says so. Returns the error that stopped it, if any (what was read
    /// before stays read).
    func parse(_ input: XMLInput, isCancelled: () -> Bool = { false }) -> ActivityFileError? {
        _ = Self.libraryReady
        var handler = Self.makeHandler()
        guard let context = xmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, file)
        else {
            return ActivityFileError(file: file, message: "the XML parser could not start (out of memory?); try again")
        }
        defer {
            self.context = nil
            xmlFreeParserCtxt(context)
        }
        self.context = context
        // NOENT replaces the predefined entities in attribute values too; with no entity callbacks set no
        // other entity exists. NONET: nothing is fetched, ever.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue))
        func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var offset = 0
            while offset < bytes.count, failure == nil {
                if isCancelled() {
                    stop("reading stopped: the import was cancelled (the client went away or the service is stopping)")
                    break
                }
                let count = min(Self.chunkSize, bytes.count - offset)
                bytes.baseAddress.map { base in
                    (base + offset).withMemoryRebound(to: CChar.self, capacity: count) {
                        _ = xmlParseChunk(context, $0, Int32(count), 0)
                    }
                }
                offset += count
            }
            return failure == nil
        }
        switch input {
        case .bytes(let data) where Gzip.isCompressed(data):
            do {
                try Gzip.decompress(data, limit: Gzip.maximumDecompressedSize, into: feed)
            } catch {
                return ActivityFileError(file: file, byteOffset: error.byteOffset, message: error.description)
            }
        case .bytes(let data):
            _ = data.withUnsafeBytes { feed($0.bindMemory(to: UInt8.self)) }
        case .file(let handle):
            do {
                while let chunk = try handle.read(upToCount: Self.chunkSize), !chunk.isEmpty,
                    chunk.withUnsafeBytes({ feed($0.bindMemory(to: UInt8.self)) })
                {}
            } catch {
                return ActivityFileError(
                    file: file,
                    message: "cannot read the file (\(error.localizedDescription)); check the file and try again")
            }
        }
        if failure == nil { xmlParseChunk(context, nil, 0, 1) }
        return failure.map { ActivityFileError(file: file, line: $0.line, message: $0.reason) }
    }

    /// Counts one more sample read; past ``ActivityFileReader/maximumSamples`` it stops the parser with
    /// the limit's message and returns false (the sample is then not kept).
    func countSample() -> Bool {
        sampleCount += 1
        guard sampleCount > ActivityFileReader.maximumSamples else { return true }
        stop(ActivityFileReader.tooManySamples)
        return false
    }

    /// Stops the parser with `reason`, at the current line.
    private func stop(_ reason: String) {
        guard failure == nil else { return }
        failure = (reason, line)
        if let context { xmlStopParser(context) }
    }

    /// A fatal error libxml2 reported: the document is not well-formed (or too big for its limits).
    private func parseError(_ error: xmlError) {
        guard failure == nil, error.level == XML_ERR_FATAL else { return }
        let code = Int(error.code)
        let said = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let reason = Self.reasons[code] ?? "\(said.isEmpty ? "XML parser error" : said) (libxml2 error \(code))"
        failure = ("malformed XML (\(reason)); the file is damaged, fix or export it again", Int(error.line))
    }

    /// Plain words for libxml2's error codes.
    private static let reasons: [Int: String] = [
        4: "the document is empty",
        5: "the document ends before its elements are closed (is the file cut short?)",
        9: "a character XML does not allow",
        22: "a bare '&' (write &amp;)", 23: "a bare '&' (write &amp;)", 26: "an undeclared entity",
        38: "a '<' inside an attribute value", 39: "a malformed attribute", 40: "a malformed attribute",
        41: "an attribute without a value", 42: "an attribute given twice",
        68: "a tag without a name", 73: "a tag that is not closed with '>' (is the file cut short?)",
        76: "an end tag that does not match the element it closes", 77: "a tag that is not finished",
        85: "elements that are not properly nested", 86: "content after the root element"
    ]

    /// The line the parser is at.
    var line: Int { context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0 }

    /// Called when an element opens, after it was pushed onto `path`.
    func open(_ name: String, attributes: [String: String]) {}

    /// Called when an element closes, before it is popped from `path`, with its trimmed text.
    func close(_ name: String, text: String) {}

    /// Whether the text inside the current element is wanted (saves collecting whole documents).
    func wantsText() -> Bool { true }

    private func startElement(_ localName: String, attributes: [String: String]) {
        guard path.count < Self.maximumDepth else {
            stop(
                "elements nested more than \(Self.maximumDepth) deep (GPX and TCX files nest about 8); the file is not an activity export"
            )
            return
        }
        path.append(localName)
        text.removeAll(keepingCapacity: true)
        open(localName, attributes: attributes)
    }

    private func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard wantsText(), text.count < Self.maximumText else { return }
        text.append(contentsOf: bytes.prefix(Self.maximumText - text.count))
    }

    private func endElement(_ localName: String) {
        // XML's white space is these four bytes; trimming them before decoding is far cheaper than Foundation's trim.
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        let start = text.firstIndex { !isSpace($0) } ?? text.endIndex
        let end = text.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? start
        close(localName, text: String(decoding: text[start..<max(start, end)], as: UTF8.self))
        text.removeAll(keepingCapacity: true)
        if !path.isEmpty { path.removeLast() }
    }

    /// The path below the element at `depth` (its index in `path`), joined with "/".
    func relativePath(below depth: Int) -> String {
        path.count > depth + 1 ? path[(depth + 1)...].joined(separator: "/") : ""
    }

    // MARK: libxml2's SAX callbacks (C functions: the reader travels as the context pointer)

    private static func reader(_ context: UnsafeMutableRawPointer?) -> XMLDocumentReader? {
        context.map { Unmanaged<XMLDocumentReader>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// libxml2's global set-up, once per process before the first parser.
    private static let libraryReady: Void = xmlInitParser()

    /// Only what the readers need: elements, text, CDATA and errors. No entity, DTD or external callbacks.
    private static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            var values: [String: String] = [:]
            if let attributes {
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4]
                    else { continue }
                    values[XMLDocumentReader.string(name)] = String(
                        decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                }
            }
            XMLDocumentReader.reader(context)?.startElement(XMLDocumentReader.string(localName), attributes: values)
        }
        handler.endElementNs = { context, localName, _, _ in
            XMLDocumentReader.reader(context)?.endElement(XMLDocumentReader.string(localName))
        }
        let characters: charactersSAXFunc = { context, bytes, count in
            guard let bytes, count > 0 else { return }
            XMLDocumentReader.reader(context)?.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        handler.serror = { context, error in
            guard let error else { return }
            XMLDocumentReader.reader(context)?.parseError(error.pointee)
        }
        return handler
    }
}

/// Where an XML document's bytes come from.
enum XMLInput {
    /// Bytes in memory, plain or gzip-compressed.
    case bytes(Data)
    /// A plain (not compressed) file, read a chunk at a time from its start.
    case file(FileHandle)
}
