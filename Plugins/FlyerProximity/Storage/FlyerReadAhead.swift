import Foundation

/// Reads a `FlyerSource` on a thread of its own, a few batches ahead of the caller, so that
/// parsing and checking the input overlaps with writing it.
final class FlyerReadAhead: @unchecked Sendable {
    /// Flyers in input order and how much of the input was read when the batch was cut.
    struct Batch {
        var flyers: ArraySlice<Flyer>
        var fractionRead: Double
    }

    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var finished = false
    private var failure: FlyerInputError?
    private var stopped = false
    private let exited = DispatchSemaphore(value: 0)
    private let depth: Int

    /// Starts reading `source` in batches of `batchSize`, holding at most `depth` unclaimed batches.
    init(_ source: some FlyerSource, batchSize: Int = 8192, depth: Int = 4) {
        self.depth = depth
        let thread = Thread { [self] in
            var source = source
            read(&source, batchSize: batchSize)
            exited.signal()
        }
        thread.name = "flyer read-ahead"
        thread.start()
    }

    /// The next batch, waiting for it; nil at the end of the input, or the input's error.
    func next() throws(FlyerInputError) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reader (if it is still reading) and waits until its thread has ended. A `next` waiting for a batch
    /// (a write given up while it read) returns nil then; such a write rolls back, never commits what it has.
    func stop() {
        condition.lock()
        stopped = true
        finished = true
        condition.broadcast()
        condition.unlock()
        exited.wait()
    }

    private func read(_ source: inout some FlyerSource, batchSize: Int) {
        var batch: [Flyer] = []
        batch.reserveCapacity(batchSize)
        do {
            while let flyer = try source.next() {
                batch.append(flyer)
                if batch.count == batchSize {
                    guard hand(Batch(flyers: batch[...], fractionRead: source.fractionRead)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { _ = hand(Batch(flyers: batch[...], fractionRead: source.fractionRead)) }
            end(failure: nil)
        } catch {
            end(failure: error)
        }
    }

    /// Queues `batch` once there is room; false when the caller has stopped reading.
    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= depth && !stopped { condition.wait() }
        guard !stopped else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    private func end(failure: FlyerInputError?) {
        condition.lock()
        finished = true
        self.failure = failure
        condition.broadcast()
        condition.unlock()
    }
}
