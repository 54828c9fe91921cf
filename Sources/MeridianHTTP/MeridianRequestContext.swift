import Hummingbird
import NIOCore

/// The request context used by every Meridian route: Hummingbird's basic context and the connection the
/// request arrived on (for `RequestCancellation`).
public struct MeridianRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
