/// The first `keep` items in title-then-id order among those offered: a page of a listing without a location.
struct TitleOrder<Element> {
    let keep: Int
    /// The items kept so far, in order.
    private(set) var items: [(position: TitlePosition, element: Element)] = []

    init(keep: Int) {
        self.keep = keep
    }

    /// Whether an item at `title` and `id` would be kept now.
    private func wants(_ title: String, _ id: String) -> Bool {
        guard items.count == keep, let last = items.last else { return true }
        return TitlePosition(title: title, id: id).precedes(last.position.title, last.position.id)
    }

    /// Keeps `element` at `title` and `id` if it is among the first `keep` so far.
    mutating func offer(_ title: String, _ id: String, _ element: Element) {
        guard wants(title, id) else { return }
        let index = items.partitioningIndex { !$0.position.precedes(title, id) }
        items.insert((TitlePosition(title: title, id: id), element), at: index)
        if items.count > keep { items.removeLast() }
    }
}
