import Dispatch

extension PasswordHasher {
    /// `hash` on a Dispatch worker: PBKDF2 takes tens to hundreds of milliseconds and must not hold one of
    /// the few Swift concurrency threads (which also run the HTTP server).
    func hashOffloaded(_ password: String) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: hash(password)) }
        }
    }

    /// `verify` on a Dispatch worker (see `hashOffloaded`).
    func verifyOffloaded(_ password: String, against stored: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: verify(password, against: stored)) }
        }
    }
}
