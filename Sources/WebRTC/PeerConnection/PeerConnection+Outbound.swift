import WebRTCCore

/// Media out: VP8 frames and Opus packets become SRTP; video packets are kept (protected) for NACK.
extension PeerConnection {
    /// Sends one encoded VP8 frame. Returns false when it was not sent: no video negotiated, not yet
    /// connected, or a delta frame before the first keyframe (a keyframe is then requested).
    @discardableResult
    public func sendVideo(_ frame: OutgoingVideoFrame) throws(PeerConnectionError) -> Bool {
        guard var stream = video else { return false }
        guard let srtp, dtlsPhase == .connected, !isClosed else {
            stats.videoFramesSkipped += 1
            return false
        }
        let now = now()
        defer { video = stream }
        let packets = try stream.packets(for: frame, now: now)
        guard !packets.isEmpty else {
            stats.videoFramesSkipped += 1
            requestKeyframe(.waitingForKeyframe)
            return false
        }
        for packet in packets {
            let protected = try protect(packet, with: srtp)
            history.store(protected, sequenceNumber: packet.sequenceNumber)
            stream.sent(packet, wireLength: protected.count, now: now)
            if configuration.outgoingPacketFilter?(packet) == false { continue }
            transmit(protected)
        }
        return true
    }

    /// Sends one Opus packet lasting `samples` at 48 kHz (960 = 20 ms). Returns false when no audio is
    /// sent on this connection or it is not connected yet.
    @discardableResult
    public func sendAudio(_ opus: [UInt8], samples: UInt32 = OpusPacketizer.defaultFrameSamples) throws(PeerConnectionError)
        -> Bool
    {
        guard var stream = audio, let srtp, dtlsPhase == .connected, !isClosed else { return false }
        let now = now()
        let packet = stream.packet(for: opus, samples: samples, now: now)
        defer { audio = stream }
        let protected = try protect(packet, with: srtp)
        stream.sent(packet, wireLength: protected.count, now: now)
        if configuration.outgoingPacketFilter?(packet) == false { return true }
        transmit(protected)
        return true
    }

    private func protect(_ packet: RTPPacket, with srtp: SRTPSession) throws(PeerConnectionError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try packet.serialized() } catch {
            throw .packetization(call: "RTPPacket.serialized", detail: "\(error)")
        }
        do { return try srtp.protectRTP(bytes) } catch { throw .srtp(error) }
    }

    // MARK: - Timer

    /// Every 20 ms: DTLS retransmissions and deadline, deferred keyframe requests, RTCP reports.
    func tick() {
        guard !isClosed else { return }
        let now = now()
        if let dtls, dtlsPhase == .handshaking {
            dtls.handleTimeout(now: now)
            flushDTLS()
        }
        if keyframes.poll(now: now) { eventSink.yield(.keyframeNeeded(pendingKeyframeReason)) }
        if srtp != nil, dtlsPhase == .connected, now >= nextReport {
            nextReport = now + configuration.reportInterval
            sendReports(now: now)
        }
        if srtp != nil, now >= nextNACK {
            nextNACK = now + configuration.nackInterval
            sendNACK()
        }
        if dtlsPhase == .connected, inactivity.isSilent(at: now) {
            fail(.peerSilent(seconds: Int(inactivity.timeout.components.seconds)))
        }
    }

    /// A generic NACK for the peer's video packets still missing (RFC 4585 §6.2.1), when negotiated.
    func sendNACK() {
        guard let srtp, let remoteVideoSSRC, session?.video?.feedback.contains("nack") == true,
            let nack = videoLosses.makeNACK(senderSSRC: local.videoSSRC, mediaSSRC: remoteVideoSSRC)
        else { return }
        guard let bytes = try? RTCPPacket.serializeCompound([.nack(nack)]), let protected = try? srtp.protectRTCP(bytes) else {
            stats.sendErrors += 1
            return
        }
        stats.nacksSent += 1
        transmit(protected)
    }

    /// One compound RTCP packet (RFC 3550 §6.1): an SR per stream we send (the first carries the
    /// reception reports of what we receive), or an RR when we send nothing, then SDES CNAME.
    func sendReports(now: Duration) {
        guard let srtp else { return }
        var blocks: [ReportBlock] = []
        for ssrc in inboundStatistics.keys.sorted() {
            if let block = inboundStatistics[ssrc]?.makeReportBlock(now: now) { blocks.append(block) }
        }
        let ntp = NTPTime.now()
        var packets: [RTCPPacket] = []
        var cnameSSRCs: [UInt32] = []
        for counters in [audio?.counters, video?.counters].compactMap({ $0 }) {
            guard let report = counters.senderReport(now: now, ntp: ntp, reports: packets.isEmpty ? blocks : []) else {
                continue
            }
            packets.append(.senderReport(report))
            cnameSSRCs.append(counters.ssrc)
        }
        if packets.isEmpty {
            guard !blocks.isEmpty else { return }
            packets.append(.receiverReport(ReceiverReport(ssrc: local.audioSSRC, reports: blocks)))
            cnameSSRCs.append(local.audioSSRC)
        }
        let chunks = cnameSSRCs.map { ssrc in
            SourceDescription.Chunk(
                ssrc: ssrc, items: [SourceDescription.Item(type: SourceDescription.Item.cnameType, value: Array(local.cname.utf8))])
        }
        packets.append(.sourceDescription(SourceDescription(chunks: chunks)))
        guard let bytes = try? RTCPPacket.serializeCompound(packets), let protected = try? srtp.protectRTCP(bytes) else {
            stats.sendErrors += 1
            return
        }
        stats.rtcpReportsSent += 1
        transmit(protected)
    }
}
