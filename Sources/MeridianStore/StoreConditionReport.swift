import MeridianCore

/// The store reports what its background check found damaged (`/health` says `damaged`).
extension Store: StoreCondition {
    public var damageDescription: String? { damage?.description }
}
