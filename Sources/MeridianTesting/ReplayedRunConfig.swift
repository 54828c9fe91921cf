import Foundation

/// The configuration the process tests serve: a bundled sample run replayed at ten times real time, in a loop,
/// into `consumers`, with the store at `database` and the HTTP API on `port` behind `token`.
public func replayedRunConfig(database: String, port: Int, token: String, consumers: [String]) -> String {
    let sample = TestData.repositoryRoot.appendingPathComponent("Config/samples/sample-run.nmea").path
    return """
        http:
          port: \(port)
          token: \(token)
        store:
          path: \(database)
        providers:
          - id: replay
            type: replay
            file: \(sample)
            speed: 10
            loop: true
            retime: true
        consumers:
        \(consumers.map { "  - type: \($0)" }.joined(separator: "\n"))

        """
}
