/// The peer connection's one timer, driven by deadlines (issue #21): it runs `tick` when something is due
/// (a DTLS retransmission while handshaking, a deferred keyframe request, a NACK for lost video, the next
/// RTCP report, the inactivity check) instead of every 20 ms, so a call's steady state wakes it about once
/// a second. Whatever creates an earlier deadline calls `wakeTimer(by:)`.
extension PeerConnection {
    /// While handshaking DTLS the timer runs this often (OpenSSL's own retransmission timer is polled).
    static let handshakePoll = Duration.milliseconds(20)
    /// The longest the timer sleeps: the inactivity check's granularity.
    static let longestSleep = Duration.seconds(1)

    /// Makes `tick` run at `deadline` at the latest: (re)starts the timer task when it would sleep past it.
    func wakeTimer(by deadline: Duration) {
        guard !isClosed, timerTask == nil || deadline < timerDeadline else { return }
        timerTask?.cancel()
        timerGeneration &+= 1
        timerDeadline = deadline
        let generation = timerGeneration, delay = deadline - now()
        timerTask = Task {
            if delay > .zero {
                do { try await Task.sleep(for: delay) } catch { return }
            }
            self.timerFired(generation: generation)
        }
    }

    private func timerFired(generation: UInt64) {
        guard generation == timerGeneration, !isClosed else { return }
        timerTask = nil
        tick()
        wakeTimer(by: nextTimerDeadline(now: now()))
    }

    /// The earliest instant at which `tick` has something to do.
    func nextTimerDeadline(now: Duration) -> Duration {
        var deadline = now + Self.longestSleep
        if dtlsPhase == .handshaking { deadline = min(deadline, now + Self.handshakePoll) }
        if keyframes.pending, let granted = keyframes.lastGranted {
            deadline = min(deadline, granted + keyframes.minimumInterval)
        }
        if srtp != nil {
            if dtlsPhase == .connected { deadline = min(deadline, nextReport) }
            if videoLosses.hasMissing { deadline = min(deadline, nextNACK) }
        }
        return max(deadline, now)
    }
}
