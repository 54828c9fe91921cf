extension Array {
    /// The first index whose element satisfies `belongsInSecondPartition` (elements must be partitioned): a binary
    /// search. Inlinable, so that callers in other modules get it specialised for their element and predicate.
    @inlinable
    public func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
