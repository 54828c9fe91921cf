import ArgumentParser
import MeridianCore

/// `--units metric|imperial`.
extension UnitSystem: ExpressibleByArgument {}
