/// Meridian's version, reported by `/health` and `meridian --version`.
public enum MeridianVersion {
    public static let current = "0.1.0"
}
