import ArgumentParser
import Foundation
import Glibc
import IntercomAgent
import IntercomPlatform
import Logging
import Media
import ParseClient
import ParseWire
import Synchronization
import WebRTC

/// `intercom-dev webrtc-send`: the device side of a real call, for interop tests with a browser. Logs in
/// anonymously, prints its userID, waits for an `ActiveSessions` row addressed to it, joins the row's
/// signaling room with the publisher token and answers the caller's offer with a `PeerConnection` that
/// streams the moving test pattern (VP8) and a 440 Hz tone (Opus). One status line per second.
struct WebRTCSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webrtc-send",
        abstract: "Answer one browser call with the test pattern and a 440 Hz tone (WebRTC interop test)."
    )

    @Option(help: "Parse server URL including the mount path, e.g. http://127.0.0.1:1337/parse.")
    var server: String

    @Option(help: "Seconds to stream once connected; 0 streams until the caller hangs up.")
    var seconds = 0

    @Option(name: .customLong("wait"), help: "Seconds to wait for an incoming call row.")
    var waitSeconds = 120

    @Option(help: "VP8 target bitrate, kbit/s.")
    var bitrate = 800

    @Option(help: "Video frame rate.")
    var fps = 30

    func run() async throws {
        var logger = Logger(label: "webrtc-send")
        logger.logLevel = .warning
        let client = ParseRESTClient(
            serverURL: server,
            settings: ParseClientSettings(
                applicationId: "intercom", installationId: UUID().uuidString.lowercased(),
                clientVersion: "intercom-dev-webrtc-send"),
            logger: logger)
        let user = try await client.send(UserResponse.self) {
            $0.anonymousLogin(anonymousId: UUID().uuidString.lowercased(), requestId: $1)
        }
        await client.setSessionToken(user.sessionToken)
        Terminal.out("webrtc-send: userID \(user.objectId)")
        let row = try await waitForCall(client: client, receiverID: user.objectId)
        _ = try? await client.send(EmptyResponse.self) { $0.deleteCall(objectId: row.objectId, requestId: $1) }
        guard let signalURL = row.signalURL, let token = row.publisherToken else {
            throw ValidationError("the call row \(row.objectId) has no signalURL/publisherToken")
        }
        Terminal.out("webrtc-send: call \(row.objectId) from \(row.callerID), joining \(signalURL)")
        var call = WebRTCSendCall(
            signaling: SignalingConnection(url: signalURL, token: token, name: "intercom-dev webrtc-send", logger: logger),
            iceServers: row.iceServers ?? [], bitrateKbps: bitrate, fps: fps, streamSeconds: seconds)
        let outcome = await call.run()
        Terminal.out("webrtc-send: ended: \(outcome.reason)")
        if !outcome.succeeded { throw ExitCode.failure }
    }

    private func waitForCall(client: ParseRESTClient, receiverID: String) async throws -> ActiveSessionRow {
        let deadline = ContinuousClock.now + .seconds(waitSeconds)
        while ContinuousClock.now < deadline {
            let rows = try await client.send(QueryResults<ActiveSessionRow>.self) {
                $0.incomingCalls(receiverID: receiverID, requestId: $1)
            }
            if let row = rows.results.first { return row }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw ValidationError("no call arrived within \(waitSeconds) s")
    }
}

/// One answered call: signaling in and out, the peer connection, the two encoder threads, the status line.
private struct WebRTCSendCall {
    struct Outcome {
        var succeeded: Bool
        var reason: String
    }

    let signaling: SignalingConnection
    /// STUN/TURN from the call row (the `joined` frame's list replaces it when present).
    var iceServers: [IceServer]
    let bitrateKbps: Int
    let fps: Int
    let streamSeconds: Int

    mutating func run() async -> Outcome {
        await signaling.start()
        var events = signaling.events.makeAsyncIterator()
        var earlyCandidates: [SignalPayload.IceCandidate?] = []
        // Until the offer: remember candidates that overtake it (they cannot, on one socket, but cheap).
        var offer: (peer: String, sdp: String)?
        while offer == nil, let event = await events.next() {
            switch event {
            case let .joined(peerId, role, peers, servers):
                if !servers.isEmpty { iceServers = servers }
                Terminal.out("webrtc-send: joined as \(peerId) (\(role)), \(peers.count) peer(s) present")
                // SYSTEM.md §3: the receiver says it is ringing; this command answers every call at once.
                for peer in peers where peer.role == "subscriber" { await signaling.send(.ringing, to: peer.peerId) }
            case let .peerJoined(peer) where peer.role == "subscriber":
                await signaling.send(.ringing, to: peer.peerId)
            case let .signal(from, .offer(sdp)): offer = (from, sdp)
            case let .signal(_, .candidate(candidate)): earlyCandidates.append(candidate)
            case let .signal(_, .bye(reason)): return Outcome(succeeded: false, reason: "bye \(reason.rawValue) before the offer")
            case let .refused(code, message): return Outcome(succeeded: false, reason: "refused \(code): \(message)")
            case .closed: return Outcome(succeeded: false, reason: "signaling closed before the offer")
            default: break
            }
        }
        guard let offer else { return Outcome(succeeded: false, reason: "signaling ended before the offer") }

        let connection: PeerConnection
        do {
            var configuration = PeerConnectionConfiguration()
            configuration.useICEServers(iceServers.map { ($0.urls, $0.username, $0.credential) })
            connection = try await PeerConnection(
                role: .answerer, certificate: try DTLSCertificate(), configuration: configuration)
        } catch {
            await signaling.close()
            return Outcome(succeeded: false, reason: "could not create the peer connection: \(error)")
        }
        do {
            let answer = try await connection.acceptOffer(offer.sdp)
            await signaling.send(.answer(sdp: answer), to: offer.peer)
            try await connection.startGathering()
        } catch {
            await signaling.send(.bye(.error), to: offer.peer)
            await connection.close()
            await signaling.close()
            return Outcome(succeeded: false, reason: "could not answer: \(error)")
        }
        for candidate in earlyCandidates { try? await connection.addRemoteCandidate(candidate?.candidate) }
        let outcome = await stream(over: connection, to: offer.peer)
        await signaling.send(.bye(outcome.succeeded ? .hangup : .error), to: offer.peer)
        await connection.close()
        await signaling.close()
        return outcome
    }

    /// Runs the call until the first of: the stream time is up, the caller hangs up, or the connection fails.
    private func stream(
        over connection: PeerConnection, to peer: String
    ) async -> Outcome {
        let (endings, ending) = AsyncStream.makeStream(of: Outcome.self)
        let media = MediaService(
            settings: .init(fps: fps, bitrateKbps: bitrateKbps), logger: Logger(label: "webrtc-send"))
        media.start()
        media.setDemand("webrtc-send", wanted: true)
        let receivedAudio = AudioLevelMeter()
        let connectedAt = ConnectedSince()
        let signaling = self.signaling
        let streamSeconds = self.streamSeconds
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The iterator that waited for the offer is done with; this one continues the same stream.
                for await event in signaling.events {
                    switch event {
                    case let .signal(_, .candidate(candidate)):
                        do { try await connection.addRemoteCandidate(candidate?.candidate) } catch {
                            Terminal.out("webrtc-send: remote candidate ignored: \(error)")
                        }
                    case let .signal(_, .bye(reason)): ending.yield(Outcome(succeeded: true, reason: "caller sent bye \(reason.rawValue)"))
                    case let .peerLeft(peerId, reason) where peerId == peer:
                        ending.yield(Outcome(succeeded: true, reason: "caller left (\(reason ?? "-"))"))
                    case .closed: ending.yield(Outcome(succeeded: false, reason: "signaling closed"))
                    default: break
                    }
                }
            }
            group.addTask {
                for await event in connection.events {
                    switch event {
                    case let .localCandidate(candidate, mid, index):
                        await signaling.send(
                            .candidate(.init(candidate: candidate, sdpMid: mid, sdpMLineIndex: index)), to: peer)
                    case .localCandidatesComplete:
                        await signaling.send(.candidate(nil), to: peer)
                    case .keyframeNeeded:
                        media.requestKeyframe()
                    case let .stateChanged(state, error):
                        Terminal.out("webrtc-send: state \(state.rawValue)\(error.map { " (\($0))" } ?? "")")
                        if state == .connected { connectedAt.mark() }
                        // `closed` here means the caller sent DTLS close_notify: it hung up.
                        if state == .closed { ending.yield(Outcome(succeeded: true, reason: "caller closed the connection")) }
                        if state == .failed { ending.yield(Outcome(succeeded: false, reason: "connection failed")) }
                    case let .bitrateEstimate(bitsPerSecond):
                        // Research notes §3: follow REMB with 5 % headroom, within 150 kbit/s…configured.
                        media.estimate(peer: 0, bitsPerSecond: Int(bitsPerSecond))
                    case .receptionReport, .mdnsCandidate, .selectedPair:
                        break
                    }
                }
            }
            group.addTask {
                let subscription = media.video.subscribe(bufferDepth: 4)
                for await frame in subscription.frames {
                    let outgoing = OutgoingVideoFrame(bytes: frame.bytes, rtpTimestamp: frame.rtpTimestamp, isKeyframe: frame.isKeyframe)
                    do { try await connection.sendVideo(outgoing) } catch { Terminal.out("webrtc-send: video: \(error)") }
                }
            }
            group.addTask {
                for await packet in media.audio.subscribe() {
                    do { try await connection.sendAudio(packet) } catch { Terminal.out("webrtc-send: audio: \(error)") }
                }
            }
            group.addTask {
                guard let decoder = try? OpusDecoder(sampleRate: 48_000, channels: 1) else { return }
                for await item in connection.receivedMedia {
                    guard case let .audio(packet, _) = item, let pcm = try? decoder.decode(packet.payload) else { continue }
                    receivedAudio.add(pcm)
                }
            }
            group.addTask {
                let start = ContinuousClock.now
                var second = 0
                while !Task.isCancelled {
                    second += 1
                    do { try await Task.sleep(until: start + .seconds(second)) } catch { return }
                    let stats = await connection.statistics
                    Terminal.out(Self.statusLine(second: second, stats, captured: media.framesCaptured, encoded: media.framesEncoded,
                        targetKbps: media.targetKbps, audioIn: receivedAudio.takeSecond()))
                    if streamSeconds > 0, let since = connectedAt.instant, ContinuousClock.now - since >= .seconds(streamSeconds) {
                        ending.yield(Outcome(succeeded: true, reason: "streamed \(streamSeconds) s"))
                    }
                }
            }
            var iterator = endings.makeAsyncIterator()
            let outcome = await iterator.next() ?? Outcome(succeeded: false, reason: "no outcome")
            media.stop()
            group.cancelAll()
            await connection.close()
            return outcome
        }
    }

    static func statusLine(
        second: Int, _ stats: PeerConnectionStatistics, captured: Int, encoded: Int, targetKbps: Int, audioIn: (packets: Int, level: Double)
    ) -> String {
        var line = "webrtc-send: t=\(second)s state=\(stats.state.rawValue) captured=\(captured) encoded=\(encoded) frames=\(stats.videoFramesSent)"
        line += " skipped=\(stats.videoFramesSkipped)"
        line += " video_pkts=\(stats.videoPacketsSent) audio_pkts=\(stats.audioPacketsSent) bytes=\(stats.bytesSent)"
        line += " rtx=\(stats.retransmissionsSent) kf_req=\(stats.keyframeRequestsReceived)"
        if let report = stats.lastVideoReport {
            line += " rr_video_loss=\(percent(report.fractionLost)) rr_video_jitter=\(report.jitter)"
        }
        if let report = stats.lastAudioReport {
            line += " rr_audio_loss=\(percent(report.fractionLost)) rr_audio_jitter=\(report.jitter)"
        }
        if let remb = stats.remoteBitrateEstimate { line += " remb=\(remb / 1000)k" }
        line += " target=\(targetKbps)k"
        line += " audio_in_pkts=\(stats.audioPacketsReceived) audio_in_level=\(String(format: "%.1f", audioIn.level))dBFS"
        return line
    }

    static func percent(_ fraction: UInt8) -> String { String(format: "%.1f%%", Double(fraction) * 100 / 256) }
}

/// When the connection first reached `connected`.
private final class ConnectedSince: Sendable {
    private let value = Mutex<ContinuousClock.Instant?>(nil)
    func mark() { value.withLock { $0 = $0 ?? .now } }
    var instant: ContinuousClock.Instant? { value.withLock { $0 } }
}
