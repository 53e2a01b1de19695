/// A Chromium (M120-era, unified plan) offer written by hand in Chromium's format: BUNDLE, Opus 111 with
/// RED and telephone-event, VP8 96 with RTX 97, H264 with RTX, many extmaps, ssrc-group FID, msid,
/// host and srflx candidates, and a data channel.
enum ChromiumOfferFixture {
    static let fingerprintHex =
        "D2:FA:0E:C3:22:59:5E:14:95:69:92:3D:13:B4:84:24:2C:C2:A2:C0:3E:FD:34:8E:5E:EA:6F:AF:52:CE:E6:0F"
    static let audioSSRC: UInt32 = 3_735_928_559
    static let videoSSRC: UInt32 = 2_864_434_397
    static let videoRTXSSRC: UInt32 = 1_450_470_945

    static let transportLines = [
        "a=ice-ufrag:EsAw",
        "a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1",
        "a=ice-options:trickle",
        "a=fingerprint:sha-256 \(fingerprintHex)",
        "a=setup:actpass",
    ]

    static let lines: [String] =
        [
            "v=0",
            "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
            "s=-",
            "t=0 0",
            "a=group:BUNDLE 0 1 2",
            "a=extmap-allow-mixed",
            "a=msid-semantic: WMS 9f2c3d4e-stream",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126",
            "c=IN IP4 0.0.0.0",
            "a=rtcp:9 IN IP4 0.0.0.0",
            "a=candidate:1467250027 1 udp 2122260223 192.168.1.20 54321 typ host generation 0 network-id 1",
            "a=candidate:3233657399 1 udp 1686052607 203.0.113.7 54321 typ srflx raddr 192.168.1.20 rport 54321 generation 0",
        ] + transportLines + [
            "a=mid:0",
            "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level",
            "a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time",
            "a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
            "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid",
            "a=sendrecv",
            "a=msid:9f2c3d4e-stream 7a1b2c3d-audio",
            "a=rtcp-mux",
            "a=rtcp-rsize",
            "a=rtpmap:111 opus/48000/2",
            "a=rtcp-fb:111 transport-cc",
            "a=fmtp:111 minptime=10;useinbandfec=1",
            "a=rtpmap:63 red/48000/2",
            "a=fmtp:63 111/111",
            "a=rtpmap:9 G722/8000",
            "a=rtpmap:0 PCMU/8000",
            "a=rtpmap:8 PCMA/8000",
            "a=rtpmap:13 CN/8000",
            "a=rtpmap:110 telephone-event/48000",
            "a=rtpmap:126 telephone-event/8000",
            "a=ssrc:\(audioSSRC) cname:4TOk42mSjXCkVIa6",
            "a=ssrc:\(audioSSRC) msid:9f2c3d4e-stream 7a1b2c3d-audio",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103",
            "c=IN IP4 0.0.0.0",
            "a=rtcp:9 IN IP4 0.0.0.0",
        ] + transportLines + [
            "a=mid:1",
            "a=extmap:14 urn:ietf:params:rtp-hdrext:toffset",
            "a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time",
            "a=extmap:13 urn:3gpp:video-orientation",
            "a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
            "a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay",
            "a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type",
            "a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing",
            "a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space",
            "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid",
            "a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id",
            "a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id",
            "a=sendrecv",
            "a=msid:9f2c3d4e-stream 5e6f7a8b-video",
            "a=rtcp-mux",
            "a=rtcp-rsize",
            "a=rtpmap:96 VP8/90000",
            "a=rtcp-fb:96 goog-remb",
            "a=rtcp-fb:96 transport-cc",
            "a=rtcp-fb:96 ccm fir",
            "a=rtcp-fb:96 nack",
            "a=rtcp-fb:96 nack pli",
            "a=rtpmap:97 rtx/90000",
            "a=fmtp:97 apt=96",
            "a=rtpmap:102 H264/90000",
            "a=rtcp-fb:102 goog-remb",
            "a=rtcp-fb:102 nack pli",
            "a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f",
            "a=rtpmap:103 rtx/90000",
            "a=fmtp:103 apt=102",
            "a=ssrc-group:FID \(videoSSRC) \(videoRTXSSRC)",
            "a=ssrc:\(videoSSRC) cname:4TOk42mSjXCkVIa6",
            "a=ssrc:\(videoSSRC) msid:9f2c3d4e-stream 5e6f7a8b-video",
            "a=ssrc:\(videoRTXSSRC) cname:4TOk42mSjXCkVIa6",
            "a=ssrc:\(videoRTXSSRC) msid:9f2c3d4e-stream 5e6f7a8b-video",
            "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
            "c=IN IP4 0.0.0.0",
        ] + transportLines + [
            "a=mid:2",
            "a=sctp-port:5000",
            "a=max-message-size:262144",
        ]

    static let text = lines.joined(separator: "\r\n") + "\r\n"

    /// The offer with `transform` applied to its lines.
    static func text(_ transform: ([String]) -> [String]) -> String {
        transform(lines).joined(separator: "\r\n") + "\r\n"
    }

    /// The offer with every line equal to `old` replaced by `new` (or removed when `new` is nil).
    static func replacing(_ old: String, with new: String?) -> String {
        text { lines in lines.compactMap { $0 == old ? new : $0 } }
    }
}
