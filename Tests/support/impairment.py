"""A userspace impairment wire (issue #20): the kernel here has no netem, so a host `imp` of the topology
(Topology(impaired=True)) has two ports and no address, and this module forwards every Ethernet frame from one
port to the other through AF_PACKET sockets, with a one-way delay, jitter and Gilbert-Elliott burst loss.

  - every frame is delayed by `delay_ms`; IPv4/IPv6 UDP frames (the media) get a further uniform jitter of
    ±`jitter_ms`, so they can overtake each other (reordering, as on a real jittery link); other frames (ARP,
    the signaling's TCP) keep their order;
  - only UDP frames are lost, by a two-state Gilbert-Elliott chain per direction: in the good state a frame
    passes and the chain turns bad with probability `p_bad`; in the bad state it is dropped and the chain
    turns good with probability `p_good`. The long-run loss is p_bad / (p_bad + p_good) with bursts of
    1 / p_good frames on average (`for_loss(percent, burst)` picks both);
  - a rate cap (`rate_kbps`, 0: none) serialises frames at that many kbit/s per direction, as a slow uplink
    does: a frame leaves no earlier than the previous one's end on the wire, so queues build and delay grows
    when a sender exceeds it (no queue limit: a sender that does not adapt sees its delay grow);
  - `set(...)` changes the figures while frames flow (all zero gives a clean wire).

Each direction has a reader thread and a sender thread (a heap of frames by release time). `stats()` counts
forwarded and dropped frames per direction. Standard library only; needs root (AF_PACKET).
"""

import heapq
import random
import socket
import struct
import threading
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def is_udp(frame):
    """IPv4 or IPv6 UDP in an untagged Ethernet frame."""
    if len(frame) < 34:
        return False
    ethertype = struct.unpack_from("!H", frame, 12)[0]
    if ethertype == 0x0800:
        return frame[23] == 17
    if ethertype == 0x86DD:
        return len(frame) >= 54 and frame[20] == 17
    return False


class Direction:
    def __init__(self, name, source, target, wire):
        self.name, self.source, self.target, self.wire = name, source, target, wire
        self.queue, self.sequence = [], 0
        self.ready = threading.Condition()
        self.bad = False
        self.forwarded = self.dropped = 0
        self.bytes = 0
        self.last_release = 0.0
        self.wire_free_at = 0.0

    def receive(self):
        while not self.wire.stopping:
            try:
                frame, address = self.source.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            if address[2] == PACKET_OUTGOING:  # our own send on this port, seen by the tap
                continue
            delay, jitter, p_bad, p_good, rate = self.wire.figures()
            now = time.monotonic()
            udp = is_udp(frame)
            if udp and (p_bad > 0 or self.bad):
                if self.bad:
                    self.dropped += 1
                    self.bad = self.wire.random.random() >= p_good
                    continue
                self.bad = self.wire.random.random() < p_bad
            start = now
            if rate > 0:
                # The frame's turn on the capped wire, then its time on it.
                start = max(now, self.wire_free_at)
                self.wire_free_at = start + len(frame) * 8 / rate
            release = start + delay
            if udp and jitter > 0:
                release += self.wire.random.uniform(-jitter, jitter)
            else:
                # In order: never before the previous in-order frame.
                release = max(release, self.last_release)
                self.last_release = release
            with self.ready:
                self.sequence += 1
                heapq.heappush(self.queue, (release, self.sequence, frame))
                self.ready.notify()

    def send(self):
        while not self.wire.stopping:
            with self.ready:
                while not self.queue and not self.wire.stopping:
                    self.ready.wait(0.5)
                if self.wire.stopping:
                    return
                release, _, frame = self.queue[0]
                wait = release - time.monotonic()
                if wait > 0:
                    self.ready.wait(wait)
                    continue
                heapq.heappop(self.queue)
            try:
                self.target.send(frame)
                self.forwarded += 1
                self.bytes += len(frame)
            except OSError:
                pass  # a frame larger than the port's MTU, or the port going away at teardown


class ImpairedWire:
    """Frames between `imp`'s ports r0 and d0 of `topology`, impaired both ways alike."""

    def __init__(self, topology, seed=20):
        self.random = random.Random(seed)
        self.stopping = False
        self._lock = threading.Lock()
        self._figures = (0.0, 0.0, 0.0, 1.0, 0.0)
        ports = {}
        for ifname in ("r0", "d0"):
            s = topology.socket_in("imp", socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            s.bind((ifname, ETH_P_ALL))  # protocol 0 here would receive nothing
            s.settimeout(0.5)  # the readers look at `stopping` between frames
            ports[ifname] = s
        self.ports = ports
        self.directions = [Direction("to device", ports["r0"], ports["d0"], self),
                           Direction("from device", ports["d0"], ports["r0"], self)]
        self.threads = []
        for direction in self.directions:
            for body in (direction.receive, direction.send):
                thread = threading.Thread(target=body, daemon=True)
                thread.start()
                self.threads.append(thread)

    @staticmethod
    def for_loss(percent, burst):
        """(p_bad, p_good) for a long-run loss of `percent` % in bursts of `burst` frames on average."""
        if percent <= 0:
            return 0.0, 1.0
        p_good = 1.0 / burst
        loss = percent / 100.0
        return p_good * loss / (1 - loss), p_good

    def set(self, delay_ms=0, jitter_ms=0, loss_percent=0, burst=1, rate_kbps=0):
        p_bad, p_good = self.for_loss(loss_percent, burst)
        with self._lock:
            self._figures = (delay_ms / 1000.0, jitter_ms / 1000.0, p_bad, p_good, rate_kbps * 1000.0)

    def figures(self):
        with self._lock:
            return self._figures

    def stats(self):
        return {d.name: {"forwarded": d.forwarded, "dropped": d.dropped, "bytes": d.bytes} for d in self.directions}

    def close(self):
        self.stopping = True
        for direction in self.directions:
            with direction.ready:
                direction.ready.notify_all()
        for s in self.ports.values():
            try:
                s.close()
            except OSError:
                pass
