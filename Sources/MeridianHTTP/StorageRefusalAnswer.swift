import Hummingbird
import MeridianCore

extension APIError {
    /// How the API answers a storage that cannot take a request now (`StorageRefusal`): 503 with `Retry-After`,
    /// `database_busy` (1 s) while another writer or lock holds it, `database_unavailable` (5 s) while it refuses
    /// writes, `storage_full` (60 s) while its disk is full. `error` is what the storage said.
    package static func storageUnavailable(_ refusal: StorageRefusal, because error: any Error) -> APIError {
        let (code, retryAfterSeconds) =
            switch refusal {
            case .busy, .locked: ("database_busy", 1)
            case .damaged, .readOnly: ("database_unavailable", 5)
            case .full: ("storage_full", 60)
            }
        var answer = APIError(
            .serviceUnavailable, code: code,
            message: "the database cannot take this now (\(error)); try again in \(retryAfterSeconds) s")
        answer.headers[.retryAfter] = String(retryAfterSeconds)
        return answer
    }
}
