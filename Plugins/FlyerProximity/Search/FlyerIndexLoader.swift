extension FlyerIndex {
    /// Fills an index from a stream of flyers in batches, so that each batch is prepared outside
    /// the index's lock and the lock is taken once per batch.
    struct Loader {
        let index: FlyerIndex
        private var batch: [Flyer] = []

        init(into index: FlyerIndex) {
            self.index = index
        }

        mutating func add(_ flyer: Flyer) {
            batch.append(flyer)
            if batch.count == 50_000 { flush() }
        }

        /// Adds what is still waiting.
        mutating func finish() {
            flush()
        }

        private mutating func flush() {
            index.upsert(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
}
