import Glibc
import IntercomPlatform
import WebRTCCore

/// The `sip-video` thread: poll(2) on the video's RTP and RTCP sockets and the stop pipe. It wakes for the
/// phone's packets and once per report interval, nothing else (sending runs where frames are encoded).
struct SIPVideoReceiveLoop {
    let stream: SIPVideoStream
    private var buffer = [UInt8](repeating: 0, count: 2048)
    private var nextReport: Duration
    /// A socket whose receive failed is no longer polled (a broken socket must not spin the thread).
    private var rtpBroken = false
    private var rtcpBroken = false

    init(stream: SIPVideoStream) {
        self.stream = stream
        nextReport = MonotonicClock.now() + stream.reportInterval
    }

    mutating func run() {
        while !stream.isStopping {
            let rtpDescriptor: Int32 = rtpBroken ? -1 : stream.socket.descriptor
            let rtcpDescriptor: Int32 = rtcpBroken ? -1 : stream.rtcpSocket.descriptor
            var descriptors: [pollfd] = [
                pollfd(fd: rtpDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: rtcpDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stream.wakeupDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = Self.milliseconds(until: nextReport)
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else { return }
            if descriptors[2].revents != 0 { stream.drainWakeup() }
            if descriptors[0].revents != 0 { drainVideo() }
            if descriptors[1].revents != 0 { drainRTCP() }
            let now = MonotonicClock.now()
            if now >= nextReport {
                nextReport = now + stream.reportInterval
                if let (report, destination) = stream.report(now: now) { try? stream.rtcpSocket.send(report, to: destination) }
            }
        }
    }

    /// poll(2)'s timeout until `deadline`, at least 0.
    static func milliseconds(until deadline: Duration) -> Int32 {
        let wait = deadline - MonotonicClock.now()
        guard wait > .zero else { return 0 }
        let (seconds, attoseconds) = wait.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    private mutating func drainVideo() {
        while true {
            let received: (ArraySlice<UInt8>, RTPSocketAddress)?
            do { received = try stream.socket.receive(into: &buffer) } catch {
                rtpBroken = true
                return
            }
            guard let (datagram, source) = received else { return }
            // Only a well-formed (and, under SRTP, authentic) packet of the negotiated payload moves the destination.
            stream.receivedVideo(datagram, from: source)
        }
    }

    private mutating func drainRTCP() {
        while true {
            let received: (ArraySlice<UInt8>, RTPSocketAddress)?
            do { received = try stream.rtcpSocket.receive(into: &buffer) } catch {
                rtcpBroken = true
                return
            }
            guard let (datagram, source) = received else { return }
            stream.receivedRTCP(datagram, from: source)
        }
    }
}
