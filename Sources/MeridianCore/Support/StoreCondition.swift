/// What the host's database says of its own condition, for `/health`.
public protocol StoreCondition: Sendable {
    /// Nil while nothing was found damaged; else what was found.
    var damageDescription: String? { get }
}

/// Where the host puts its database's condition in the resources (`meridian serve` puts the store there).
public enum StoreConditionKey: ResourceKey {
    public typealias Value = any StoreCondition
}
