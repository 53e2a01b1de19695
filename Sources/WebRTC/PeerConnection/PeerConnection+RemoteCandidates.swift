import WebRTCCore

/// Remote candidates into libnice, `.local` names first resolved by `MDNSResolver`. A resolution runs beside
/// the signaling (it can take up to the resolver's timeout), and the peer's end-of-candidates waits for the
/// pending ones, or libnice could give up before the resolved candidate is in.
extension PeerConnection {
    /// Adds one candidate; a `.local` one is resolved in the background and reported as `.mdnsCandidate`.
    func addRemote(_ candidate: String) async throws(ICEError) {
        remoteCandidateLines.append(candidate)
        if remoteCandidateLines.count > Self.rememberedRemoteCandidates { remoteCandidateLines.removeFirst() }
        guard let text = ICECandidateLine.mdnsName(candidate), let resolver = configuration.mdnsResolver else {
            try await ice.addRemoteCandidate(candidate)
            return
        }
        let name: MDNSHostName
        do {
            name = try MDNSHostName(text)
        } catch {
            throw .malformedCandidate(line: candidate, problem: "\(error)")
        }
        pendingResolutions += 1
        let ice = self.ice
        let started = ContinuousClock.now
        tasks.append(Task {
            let result = await resolver.resolve(name)
            var resolution = MDNSCandidateResolution(name: name.description, address: nil, problem: nil,
                                                     elapsed: ContinuousClock.now - started)
            switch result {
            case .success(let address):
                resolution.address = address
                if let line = ICECandidateLine.replacingConnectionAddress(candidate, with: address) {
                    do {
                        try await ice.addRemoteCandidate(line)
                    } catch {
                        resolution.problem = "\(error)"
                    }
                }
            case .failure(let error):
                resolution.problem = "\(error)"
            }
            await self.resolutionFinished(resolution)
        })
    }

    /// End-of-candidates, now or once the resolutions in flight are done.
    func remoteCandidatesComplete() async throws(ICEError) {
        guard pendingResolutions == 0 else {
            endOfCandidatesAfterResolutions = true
            return
        }
        try await ice.remoteGatheringDone()
    }

    private func resolutionFinished(_ resolution: MDNSCandidateResolution) async {
        pendingResolutions -= 1
        guard !isClosed else { return }
        eventSink.yield(.mdnsCandidate(resolution))
        if pendingResolutions == 0, endOfCandidatesAfterResolutions {
            endOfCandidatesAfterResolutions = false
            try? await ice.remoteGatheringDone()
        }
    }
}

/// How a remote candidate's `.local` name fared: its address, or why there is none.
public struct MDNSCandidateResolution: Sendable, Equatable {
    public var name: String
    public var address: String?
    public var problem: String?
    public var elapsed: Duration
}
