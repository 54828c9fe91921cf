import MeridianCLI
import MeridianCore
import MeridianStore

extension StoreLocationOptions {
    /// The `flyers` consumer's options from the configuration (defaults without one).
    func flyerOptions(_ config: MeridianConfig?) throws -> FlyerOptions {
        guard let spec = config?.consumers.first(where: { $0.type == FlyerPlugin.registration.type }) else { return FlyerOptions() }
        do {
            return try FlyerOptions.decode(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }

    /// The flyers in the store this command uses.
    func repository() throws -> FlyerRepository {
        let config = try loadConfig()
        do {
            return try FlyerRepository(store: try openStore(config))
        } catch let error as StoreError {
            throw CommandFailure(error.description)
        }
    }
}
