import WebRTCCore

/// Everything that arrives: ICE events, and datagrams demultiplexed by their first byte (RFC 7983 §7)
/// into DTLS records, SRTP and SRTCP (RFC 5761 §4 tells RTCP from RTP on the shared component).
extension PeerConnection {
    func handle(_ event: ICEEvent) {
        guard !isClosed else { return }
        switch event {
        case let .localCandidate(candidate):
            eventSink.yield(.localCandidate(candidate: candidate, sdpMid: bundleMid, sdpMLineIndex: bundleIndex))
        case .gatheringDone:
            eventSink.yield(.localCandidatesComplete)
        case let .stateChanged(iceState):
            self.iceState = iceState
            // RFC 8842 §5.2 via RFC 5763 §5: the active side opens DTLS once ICE has a working pair; the
            // passive side starts its handshake clock then, so a ClientHello that never comes times out.
            if iceState.isConnected, let dtls, dtlsPhase == .new {
                dtlsPhase = .handshaking
                dtls.start(now: now())
                flushDTLS()
            }
            if iceState == .failed, failure == nil {
                failure = .iceFailed
            }
            updateState()
        case let .selectedPair(local, remote):
            eventSink.yield(.selectedPair(local: local, remote: remote))
        }
    }

    func receive(_ datagram: [UInt8]) {
        guard !isClosed else { return }
        stats.bytesReceived += UInt64(datagram.count)
        inactivity.heard(at: now())
        switch DatagramClass(classifying: datagram) {
        case .dtls:
            guard let dtls, dtlsPhase != .failed else { return }
            if dtlsPhase == .new { dtlsPhase = .handshaking }
            dtls.handleDatagram(datagram, now: now())
            flushDTLS()
        case .rtp:
            receiveRTP(datagram)
        case .rtcp:
            receiveRTCP(datagram)
        case .stun, .zrtp, .turnChannel, .unknown:
            break
        }
    }

    /// Sends what the DTLS endpoint queued and acts on its events.
    func flushDTLS() {
        guard let dtls else { return }
        defer { wakeTimer(by: nextTimerDeadline(now: now())) }
        while let datagram = dtls.pollTransmit() { transmit(datagram) }
        while let event = dtls.pollEvent() {
            switch event {
            case let .connected(keys):
                do {
                    srtp = try SRTPSession(keys: keys)
                } catch {
                    fail(.srtp(error))
                    continue
                }
                dtlsPhase = .connected
                nextReport = now() + .milliseconds(200)
                requestKeyframe(.mediaStarted)
            case let .failed(error):
                fail(.dtls(error))
            case .closed:
                dtlsPhase = .closed
            case .applicationData:
                break
            }
        }
        while let datagram = dtls.pollTransmit() { transmit(datagram) }
        updateState()
    }

    private func receiveRTP(_ datagram: [UInt8]) {
        guard let srtp, let session else { return }
        let packet: RTPPacket
        do {
            packet = try RTPPacket(parsing: try srtp.unprotectRTP(datagram))
        } catch {
            stats.inboundErrors += 1
            return
        }
        let arrival = now()
        if let media = session.audio, media.direction.receives, packet.payloadType == media.payloadType {
            inboundStatistics[packet.ssrc, default: ReceiveStatistics(ssrc: packet.ssrc, clockRate: media.clockRate)]
                .received(packet, arrival: arrival)
            stats.audioPacketsReceived += 1
            deliver(.audio(packet, level: media.audioLevelID.flatMap { AudioLevelIndication(packet: packet, id: $0) }))
        } else if let media = session.video, media.direction.receives, packet.payloadType == media.payloadType {
            inboundStatistics[packet.ssrc, default: ReceiveStatistics(ssrc: packet.ssrc, clockRate: media.clockRate)]
                .received(packet, arrival: arrival)
            if remoteVideoSSRC != packet.ssrc {
                remoteVideoSSRC = packet.ssrc
                videoLosses = NACKGenerator()
            }
            videoLosses.received(sequenceNumber: packet.sequenceNumber)
            if videoLosses.hasMissing, nextNACK < timerDeadline { wakeTimer(by: nextNACK) }
            stats.videoPacketsReceived += 1
            let events: [VP8DepacketizerEvent]
            do { events = try depacketizer.push(packet) } catch {
                stats.inboundErrors += 1
                return
            }
            for event in events {
                switch event {
                case let .frame(frame):
                    stats.videoFramesReceived += 1
                    deliver(.videoFrame(frame))
                case .frameLost:
                    requestPictureLoss(mediaSSRC: packet.ssrc, feedback: media.feedback)
                }
            }
        }
    }

    private func deliver(_ media: ReceivedMedia) {
        mediaConsumer.withLock { $0?.deliver }?(media)
    }

    private func receiveRTCP(_ datagram: [UInt8]) {
        guard let srtp else { return }
        let packets: [RTCPPacket]
        do {
            packets = try RTCPPacket.parseCompound(try srtp.unprotectRTCP(datagram))
        } catch {
            stats.inboundErrors += 1
            return
        }
        let arrival = now()
        for action in feedback.actions(for: packets) {
            switch action {
            case let .retransmit(sequenceNumbers):
                stats.nackedPackets += UInt64(sequenceNumbers.count)
                for sequenceNumber in sequenceNumbers {
                    guard let stored = history.packet(for: sequenceNumber) else { continue }
                    video?.retransmitted(wireLength: stored.count)
                    stats.retransmissionsSent += 1
                    transmit(stored)
                }
            case let .keyframe(reason):
                stats.keyframeRequestsReceived += 1
                requestKeyframe(reason)
            case let .bitrateEstimate(bitrate):
                stats.remoteBitrateEstimate = bitrate
                eventSink.yield(.bitrateEstimate(bitrate))
            case let .receptionReport(kind, block):
                if kind == .video { stats.lastVideoReport = block } else { stats.lastAudioReport = block }
                eventSink.yield(.receptionReport(kind, block))
            case let .senderReport(ssrc, ntpTimestamp):
                inboundStatistics[ssrc]?.receivedSenderReport(ntpTimestamp: ntpTimestamp, arrival: arrival)
            case .goodbye:
                break
            }
        }
    }

    /// A PLI to the peer's video sender after a frame was lost (RFC 4585 §6.3.1), when negotiated.
    private func requestPictureLoss(mediaSSRC: UInt32, feedback: [String]) {
        guard feedback.contains("nack pli"), let srtp, pictureLossRequests.request(now: now()) else { return }
        let pli = RTCPPacket.pictureLossIndication(PictureLossIndication(senderSSRC: local.videoSSRC, mediaSSRC: mediaSSRC))
        guard let bytes = try? RTCPPacket.serializeCompound([pli]), let protected = try? srtp.protectRTCP(bytes) else {
            stats.sendErrors += 1
            return
        }
        stats.pictureLossRequestsSent += 1
        transmit(protected)
    }
}
