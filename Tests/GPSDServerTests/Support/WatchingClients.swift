import Foundation
import MeridianTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Many gpsd clients on one thread: each connects, sends `?WATCH={"enable":true,"json":true}` and counts the TPV
/// reports it reads, all through one `poll` loop.
final class WatchingClients: @unchecked Sendable {
    private let descriptors: [Int32]
    private var counts: [Int]
    private var partial: [[UInt8]]

    init(count: Int, port: Int) throws {
        var descriptors: [Int32] = []
        for _ in 0..<count {
            let descriptor = try TestSocket.connect(port: port)
            try Self.sendWatch(descriptor)
            descriptors.append(descriptor)
        }
        self.descriptors = descriptors
        counts = Array(repeating: 0, count: count)
        partial = Array(repeating: [], count: count)
    }

    deinit { descriptors.forEach { close($0) } }

    /// Reads on a thread of its own until every client has counted `expected` TPVs or `timeout` passes; returns the counts.
    func readUntilEach(has expected: Int, timeout: Double) async -> [Int] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.pump(until: expected, timeout: timeout))
            }
        }
    }

    private func pump(until expected: Int, timeout: Double) -> [Int] {
        let deadline = Date().addingTimeInterval(timeout)
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline, counts.contains(where: { $0 < expected }) {
            guard poll(&polled, nfds_t(polled.count), 100) > 0 else { continue }
            for index in polled.indices where polled[index].revents != 0 {
                let received = recv(polled[index].fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                guard received > 0 else { continue }
                partial[index].append(contentsOf: chunk[0..<received])
                while let newline = partial[index].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: partial[index][..<newline], as: UTF8.self)
                    if line.contains(#""class":"TPV""#) { counts[index] += 1 }
                    partial[index].removeSubrange(...newline)
                }
            }
        }
        return counts
    }

    /// A client that watches and never reads, with a small receive buffer.
    static func stuck(port: Int) throws -> Int32 {
        let descriptor = try TestSocket.connect(port: port, receiveBuffer: 1024)
        try sendWatch(descriptor)
        return descriptor
    }

    private static func sendWatch(_ descriptor: Int32) throws {
        let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [10]
        guard send(descriptor, watch, watch.count, Int32(MSG_NOSIGNAL)) == watch.count else {
            throw TestSupportError("send failed: errno \(errno)")
        }
    }
}
