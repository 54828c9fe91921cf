import ArgumentParser

/// `--q TEXT` (also `--text`) of the flyer searches: only flyers with these words.
struct TextSearchOption: ParsableArguments {
    @Option(
        name: [.customLong("q"), .customLong("text")],
        help:
            "Only flyers whose title, description, address or category has every word of this text (word starts match; case and accents do not count: 'caf' finds 'Café')."
    )
    var text: String?
}
