import IntercomPlatform
import Media

/// Encodes a snapshot with the shared `JPEGEncoder` on its own short-lived thread: a 1280x720 encode takes
/// milliseconds of CPU, which must not hold a cooperative-pool thread (the call's signaling runs there).
enum SnapshotJPEG {
    static func encode(_ frame: I420Frame, quality: Int) async throws(JPEGError) -> [UInt8] {
        let result: Result<[UInt8], JPEGError> = await withCheckedContinuation { done in
            NamedThread.start("intercom-jpeg") {
                do throws(JPEGError) {
                    done.resume(returning: .success(try JPEGEncoder(quality: quality).encode(frame)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
