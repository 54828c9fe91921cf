import CPrefetch

extension Array {
    /// Asks the processor to start loading element `index` into its cache, so that reading it soon after does not
    /// wait for memory: a search knows which slots it may visit before it visits them one at a time. Only a hint
    /// (nothing is read, nothing can fail); `index` must be in bounds.
    @inline(__always)
    func prefetch(_ index: Int) {
        withUnsafeBufferPointer { elements in
            if let base = elements.baseAddress { meridian_prefetch(base + index) }
        }
    }
}
