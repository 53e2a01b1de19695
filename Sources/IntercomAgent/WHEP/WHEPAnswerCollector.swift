import ParseWire

/// What a media session signals while a WHEP answer is prepared: the answer, then each local candidate and
/// the end of gathering. `gathered(within:)` waits for that end, or for the timeout, without blocking.
actor WHEPAnswerCollector {
    struct Gathered: Sendable, Equatable {
        var answer: String?
        var candidates: [String]
        var complete: Bool
    }

    private var gathered = Gathered(answer: nil, candidates: [], complete: false)
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func add(_ payload: SignalPayload) {
        switch payload {
        case .answer(let sdp): gathered.answer = sdp
        case .candidate(let candidate?): gathered.candidates.append(candidate.candidate)
        case .candidate(nil):
            gathered.complete = true
            wake()
        default: break
        }
    }

    func gathered(within timeout: Duration) async -> Gathered {
        guard !gathered.complete else { return gathered }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.wake()
        }
        await withCheckedContinuation { waiters.append($0) }
        timer.cancel()
        return gathered
    }

    private func wake() {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
