#!/usr/bin/env python3
"""Writes the seed inputs in FuzzTesting/Corpus/<Target>/ (committed; rerun only to change them).

Text seeds are valid inputs written from docs/configuration.md and a Chromium offer; binary seeds are
well-formed RTP/RTCP/VP8/Opus packets built field by field from their RFCs, so the fuzzer starts past
the first length and version checks.
"""
import pathlib
import struct

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "FuzzTesting" / "Corpus"


def write(target, name, data):
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data.encode() if isinstance(data, str) else data)


# ── TOML and config (docs/configuration.md) ──────────────────────────────────────────────────────────
MINIMAL = """[identity]
title = "Gate 3, North entrance"
latitude = 52.52
longitude = 13.405

[backend]
server_url = "http://127.0.0.1:1337/parse"
"""

FULL = MINIMAL + """live_query_url = "ws://127.0.0.1:1337/parse"
application_id = "intercom"
client_key = "public-key"
username = "gate-3"
password_file = "backend.password"
request_timeout = "10s"

[presence]
heartbeat = "60s"

[call]
answer = "auto-after"
auto_answer_delay = "5s"
ring_timeout = "30s"
max_duration = "10m"
media_timeout = 15
allow_callers = ["user-1", "Reception"]
max_viewers = 4
busy = "reject"

[call.quiet_hours]
start = "22:00"
end = "06:30"
answer = "button"

[call.target]
title = "Reception"
radius_km = 1.5

[video]
source = "auto"
width = 640
height = 480
fps = 30
bitrate_min_kbps = 150
bitrate_start_kbps = 800
bitrate_max_kbps = 1500
encoder_speed = -12
encoder_threads = 2

[audio]
enabled = true
capture = "plughw:CARD=Device,DEV=0"
playback = "default"
sample_rate = 48000
echo_cancellation = true

[metrics]
enabled = true
listen = "127.0.0.1:9464"

[logging]
level = "info"
rate_limit_per_minute = 120

[state]
directory = "/var/lib/intercom"
"""

GPIO = MINIMAL + """
[gpio]
chip = "gpiochip0"

[gpio.buttons.accept]
line = "GPIO17"
bias = "pull-up"
active_low = true
debounce = "30ms"
long_press = "2s"

[gpio.buttons.hangup]
offset = 27

[gpio.leds.status]
line = "GPIO23"
active_low = false

[gpio.door]
line = "GPIO25"
pulse = "3s"
allow_remote_open_typo = false  # an unknown key: the loader must report it, not crash
"""

INVALID = """[identity]
title = ""
latitude = 91
[video]
fps = 0
sorce = "auto"
"""

TOML_FEATURES = """# every TOML 1.0 value kind
title = 'literal \\ string'
multi = \"\"\"
two \\
  lines\\tand \\u00e9\"\"\"
raw = '''no
escapes\\n'''
hex = 0xDEAD_beef
oct = 0o755
bin = 0b1101
big = 9_223_372_036_854_775_807
neg = -17
floats = [6.626e-34, -0.0, inf, -inf, nan, 1.7976931348623157e308]
odt = 1979-05-27T07:32:00.999999-07:00
ldt = 1979-05-27 07:32:00
ld = 1979-05-27
lt = 00:32:00.5
"quoted key" = true
a.b.c = 1
inline = { x = 1, y = [1, 2, { z = "deep" }] }
mixed = [[1, 2], ["a"], []]

[[fruit]]
name = "apple"
[fruit.physical]
color = "red"
[[fruit.variety]]
name = "red delicious"

[[fruit]]
name = "banana"
"""

# [call] replies and the reply button (issue #22): a valid pair and one reply per refusal (empty, control char).
REPLIES = MINIMAL + """
[call]
replies = ["Please leave the parcel at the door", "Two\\nlines", "", "bell\\u0007"]

[gpio.buttons.reply]
line = "GPIO5"
"""

for target in ("FuzzTOML", "FuzzConfig"):
    write(target, "replies.toml", REPLIES)
    write(target, "minimal.toml", MINIMAL)
    write(target, "full.toml", FULL)
    write(target, "gpio.toml", GPIO)
    write(target, "invalid.toml", INVALID)
# [backend] over TLS: an https server_url with a host name and ca_file (issue #20), and one with an address.
TLS = MINIMAL.replace('server_url = "http://127.0.0.1:1337/parse"',
                      'server_url = "https://intercom.example.org:8443/parse"\nca_file = "/etc/intercom/ca.pem"')
write("FuzzConfig", "tls.toml", TLS)
write("FuzzConfig", "tls-address.toml", TLS.replace("intercom.example.org", "192.0.2.10"))
# [sip] registration (docs/sip.md): every key, contact_rewrite off (issue #18 item 2), and a wrong-typed switch;
# then with calls: the allow-list and SDES-SRTP required.
SIP = MINIMAL + """
[sip]
registrar = "192.168.178.1:5060"
user = "620"
auth_user = "gate3"
transport = "udp"
port = 5060
display_name = "Gate 3"
keepalive = "25s"
register_expiry = "10m"
contact_rewrite = false
"""
write("FuzzConfig", "sip.toml", SIP)
write("FuzzConfig", "sip-wrong-type.toml", SIP.replace("contact_rewrite = false", 'contact_rewrite = "yes"'))
SIP_CALLS = MINIMAL + """
[sip]
registrar = "192.168.178.1:5060"
user = "620"
allow = ["sip:reception@192.168.178.1", "621"]
srtp = "mandatory"
"""
write("FuzzConfig", "sip-srtp.toml", SIP_CALLS)
# `codecs` (docs/sip.md "Codecs"): Opus first, mixed case; and one with an unknown name and a duplicate.
write("FuzzConfig", "sip-codecs.toml", SIP_CALLS + 'codecs = ["opus", "PCMU", "pcma"]\n')
write("FuzzConfig", "sip-codecs-bad.toml", SIP_CALLS + 'codecs = ["g722", "pcmu", "PCMU"]\n')
write("FuzzTOML", "features.toml", TOML_FEATURES)
write("FuzzTOML", "bom-crlf.toml", "\ufeff" + MINIMAL.replace("\n", "\r\n"))

# ── SDP: a Chromium unified-plan offer (the shape of Tests/WebRTCCoreTests/SDP/ChromiumOfferFixture) ──
FINGERPRINT = ("sha-256 D2:FA:0E:C3:22:59:5E:14:95:69:92:3D:13:B4:84:24:2C:C2:A2:C0:3E:FD:34:8E:5E:EA:6F:AF:"
               "52:CE:E6:0F")
TRANSPORT = ["a=ice-ufrag:EsAw", "a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1", "a=ice-options:trickle",
             "a=fingerprint:" + FINGERPRINT, "a=setup:actpass"]
OFFER = [
    "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1 2",
    "a=extmap-allow-mixed", "a=msid-semantic: WMS stream",
    "m=audio 9 UDP/TLS/RTP/SAVPF 111 63 0 110", "c=IN IP4 0.0.0.0", "a=rtcp:9 IN IP4 0.0.0.0",
    "a=candidate:1467250027 1 udp 2122260223 192.168.1.20 54321 typ host generation 0 network-id 1",
    "a=candidate:3233657399 1 udp 1686052607 203.0.113.7 54321 typ srflx raddr 192.168.1.20 rport 54321",
    "a=candidate:842163049 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active",
    "a=candidate:1 1 udp 2113937151 3f8a0b2c-1d2e-4f5a-9b8c-7d6e5f4a3b2c.local 50000 typ host",
] + TRANSPORT + [
    "a=mid:0", "a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level",
    "a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01",
    "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid", "a=sendrecv", "a=msid:stream audio-track",
    "a=rtcp-mux", "a=rtcp-rsize", "a=rtpmap:111 opus/48000/2", "a=rtcp-fb:111 transport-cc",
    "a=fmtp:111 minptime=10;useinbandfec=1", "a=rtpmap:63 red/48000/2", "a=fmtp:63 111/111",
    "a=rtpmap:0 PCMU/8000", "a=rtpmap:110 telephone-event/48000",
    "a=ssrc:3735928559 cname:4TOk42mSjXCkVIa6", "a=ssrc:3735928559 msid:stream audio-track",
    "m=video 9 UDP/TLS/RTP/SAVPF 96 97", "c=IN IP4 0.0.0.0", "a=rtcp:9 IN IP4 0.0.0.0",
] + TRANSPORT + [
    "a=mid:1", "a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time",
    "a=extmap:13 urn:3gpp:video-orientation", "a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid",
    "a=sendrecv", "a=msid:stream video-track", "a=rtcp-mux", "a=rtcp-rsize", "a=rtpmap:96 VP8/90000",
    "a=rtcp-fb:96 goog-remb", "a=rtcp-fb:96 transport-cc", "a=rtcp-fb:96 ccm fir", "a=rtcp-fb:96 nack",
    "a=rtcp-fb:96 nack pli", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96",
    "a=ssrc-group:FID 2864434397 1450470945", "a=ssrc:2864434397 cname:4TOk42mSjXCkVIa6",
    "a=ssrc:1450470945 cname:4TOk42mSjXCkVIa6",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
] + TRANSPORT + ["a=mid:2", "a=sctp-port:5000", "a=max-message-size:262144"]
write("FuzzSDP", "chromium-offer.sdp", "\r\n".join(OFFER) + "\r\n")
ANSWER = [
    "v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=ice-ufrag:abcd",
    "a=ice-pwd:0123456789abcdefghijkl", "a=fingerprint:" + FINGERPRINT, "a=setup:active", "a=mid:0",
    "a=recvonly", "a=rtcp-mux", "a=rtpmap:111 opus/48000/2", "a=end-of-candidates",
]
write("FuzzSDP", "minimal-answer-lf.sdp", "\n".join(ANSWER) + "\n")


# ── RTP (RFC 3550 §5.1, RFC 8285) ───────────────────────────────────────────────────────────────────
def rtp(payload_type, seq, ts, ssrc, payload, marker=False, csrcs=(), ext=None, padding=0):
    first = 0x80 | len(csrcs) | (0x20 if padding else 0) | (0x10 if ext else 0)
    data = struct.pack("!BBHII", first, (0x80 if marker else 0) | payload_type, seq, ts, ssrc)
    data += b"".join(struct.pack("!I", c) for c in csrcs)
    if ext:
        profile, body = ext
        body += b"\0" * (-len(body) % 4)
        data += struct.pack("!HH", profile, len(body) // 4) + body
    data += payload
    if padding:
        data += b"\0" * (padding - 1) + bytes([padding])
    return data


ONE_BYTE = (0xBEDE, bytes([0x10, 0xAA, 0x22, 0x01, 0x02, 0x03, 0x40, ord("0")]))  # audio level, abs-send-time, mid
TWO_BYTE = (0x1000, bytes([0x03, 0x02, 0x12, 0x34, 0x0E, 0x00]))  # transport-cc seq, an empty element
OPUS_20MS = bytes([0x78]) + bytes(range(40))
VP8_KEY = bytes([0x90, 0x80, 0x80, 0x01]) + bytes([0x50, 0x2D, 0x01, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01]) \
    + bytes(24)
write("FuzzRTP", "opus-one-byte-ext.rtp", rtp(111, 4660, 960, 0xDEADBEEF, OPUS_20MS, marker=True, ext=ONE_BYTE))
write("FuzzRTP", "vp8-two-byte-ext.rtp", rtp(96, 65535, 90000, 0xAABBCCDD, VP8_KEY, ext=TWO_BYTE))
write("FuzzRTP", "csrc-padding.rtp", rtp(0, 1, 160, 7, bytes(20), csrcs=(1, 2, 3), padding=4))
write("FuzzRTP", "opaque-ext.rtp", rtp(100, 9, 9, 9, b"\x01", ext=(0x1234, b"\x00\x01\x02\x03")))


# ── RTCP (RFC 3550 §6, RFC 4585 §6, draft-alvestrand-rmcat-remb) ────────────────────────────────────
def rtcp(count, packet_type, body, padding=0):
    if padding:
        body += b"\0" * (padding - 1) + bytes([padding])
    return struct.pack("!BBH", 0x80 | (0x20 if padding else 0) | count, packet_type, len(body) // 4) + body


REPORT_BLOCK = struct.pack("!IB3sIIII", 0xDEADBEEF, 12, b"\x00\x00\x05", 70000, 30, 0x12345678, 655)
SR = rtcp(1, 200, struct.pack("!IIIII", 0xAABBCCDD, 0xE8E8E8E8, 0x80000000, 90000, 120)
          + struct.pack("!I", 64000) + REPORT_BLOCK)
SDES = rtcp(1, 202, struct.pack("!I", 0xAABBCCDD) + bytes([1, 16]) + b"4TOk42mSjXCkVIa6" + b"\0\0")  # null item + pad to a word
RR = rtcp(1, 201, struct.pack("!I", 1) + REPORT_BLOCK)
REMB = rtcp(15, 206, struct.pack("!II", 1, 0) + b"REMB" + bytes([1, 0x0B, 0x71, 0xB0]) + struct.pack("!I", 0xDEADBEEF))
NACK = rtcp(1, 205, struct.pack("!IIHH", 1, 0xDEADBEEF, 1000, 0b1010))
PLI = rtcp(1, 206, struct.pack("!II", 1, 0xDEADBEEF))
FIR = rtcp(4, 206, struct.pack("!IIIB3s", 1, 0, 0xDEADBEEF, 7, b"\0\0\0"))
BYE = rtcp(1, 203, struct.pack("!I", 0xAABBCCDD) + bytes([7]) + b"hang up")
XR = rtcp(0, 207, struct.pack("!I", 1) + bytes([4, 0, 0, 2]) + bytes(8))
write("FuzzRTCP", "sr-sdes.rtcp", SR + SDES)
write("FuzzRTCP", "rr-remb.rtcp", RR + REMB)
write("FuzzRTCP", "rr-nack-pli-fir.rtcp", RR + NACK + PLI + FIR)
write("FuzzRTCP", "bye-padded.rtcp", RR + rtcp(1, 203, struct.pack("!I", 0xAABBCCDD) + bytes([3]) + b"bye", padding=4))
write("FuzzRTCP", "rr-bye-xr.rtcp", RR + BYE + XR)


# ── VP8 (RFC 7741 §4.2, RFC 6386 §9.1) ──────────────────────────────────────────────────────────────
def stream(*packets):
    """FuzzVP8's packet-stream reading: control byte (marker, timestamp step, sequence step), length, payload."""
    return b"".join(bytes([control, len(payload)]) + payload for control, payload in packets)


# Key frame tag (first partition 40 bytes, shown), start code, 640x480.
KEY_HEADER = bytes([0x10, 0x05, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01])
write("FuzzVP8", "key-frame-payload.vp8", bytes([0x90, 0xE0, 0x80, 0x01, 0x05, 0x40]) + KEY_HEADER + bytes(30))
write("FuzzVP8", "inter-frame-payload.vp8", bytes([0x10, 0x31, 0x00, 0x00]) + bytes(12))
write("FuzzVP8", "packet-stream.vp8", stream(
    (0x01, bytes([0x90, 0x80, 0x80, 0x07]) + KEY_HEADER + bytes(6)),
    (0x01, bytes([0x80, 0x80, 0x80, 0x07]) + bytes(16)),
    (0x81, bytes([0x80, 0x80, 0x80, 0x07]) + bytes(8)),
    (0x09, bytes([0x90, 0x80, 0x80, 0x08, 0x31, 0x00, 0x00]) + bytes(5)),
    (0x83, bytes([0x80, 0x80, 0x80, 0x08]) + bytes(5)),
))
write("FuzzVP8", "frame.vp8", KEY_HEADER + bytes(range(60)))

# ── Opus (RFC 6716 §3) ──────────────────────────────────────────────────────────────────────────────
write("FuzzOpus", "code0-celt-fb.opus", bytes([0xFC]) + bytes(range(60)))
write("FuzzOpus", "code1-silk-wb.opus", bytes([0x49]) + bytes(40))
write("FuzzOpus", "code2-two-byte-length.opus", bytes([0x7A, 0xFC, 0x00]) + bytes(260))
write("FuzzOpus", "code3-cbr.opus", bytes([0xFB, 0x03]) + bytes(30))
write("FuzzOpus", "code3-vbr-padding.opus", bytes([0xFB, 0xC3, 0xFF, 0x02, 5, 7]) + bytes(5 + 7 + 9 + 256))

# ── SIP (RFC 3261 §7, RFC 4475) ─────────────────────────────────────────────────────────────────────
SIP_INVITE = [
    "INVITE sip:bob@example.com SIP/2.0",
    "Via: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKinvite1;rport",
    "Max-Forwards: 70",
    'From: "Alice" <sip:alice@example.com>;tag=a1',
    "To: <sip:bob@example.com>",
    "Call-ID: call-1@192.0.2.10",
    "CSeq: 1 INVITE",
    "Contact: <sip:alice@192.0.2.10:5060;transport=udp>",
    "Record-Route: <sip:proxy.example.com;lr>, <sip:edge.example.com;lr>",
    "Content-Type: application/sdp",
    "Content-Length: 23",
    "",
    "v=0\r\no=- 1 1 IN IP4 x\r\n",
]
write("FuzzSIP", "invite.sip", "\r\n".join(SIP_INVITE))
SIP_COMPACT = [
    "OPTIONS sip:user;par=u%40example.net@example.com SIP/2.0",
    "v:  SIP  / 2.0  / TCP     spindle.example.com   ;",
    "  branch  =   z9hG4bK9ikj8  ,",
    " SIP  /    2.0   / UDP  192.168.255.111   ; branch=",
    " z9hG4bK30239",
    "f: caller<sip:caller@example.com>;tag=323",
    "t: sip:user@example.com",
    "i: compact.1234abcd@funky.example.com",
    "cseq: 0009",
    "  OPTIONS",
    "l: 0",
    "",
    "",
]
write("FuzzSIP", "compact-folded.sip", "\r\n".join(SIP_COMPACT))
SIP_401 = [
    "SIP/2.0 401 Unauthorized",
    "Via: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKreg1;rport=40123;received=203.0.113.9",
    "From: <sip:alice@example.com>;tag=r1",
    "To: <sip:alice@example.com>;tag=srv",
    "Call-ID: reg-1@192.0.2.10",
    "CSeq: 1 REGISTER",
    'WWW-Authenticate: Digest realm="example.com", nonce="7ypf/xlj9XXwfDPEoM4URrv", opaque="FQhe", '
    'algorithm=SHA-256, qop="auth, auth-int", stale=FALSE',
    "Content-Length: 0",
    "",
    "",
]
write("FuzzSIP", "register-401.sip", "\r\n".join(SIP_401))
# Two messages back to back with a CRLF keep-alive between them: what the TCP framer sees.
write("FuzzSIP", "stream-two.sip", "\r\n".join(SIP_401) + "\r\n\r\n" + "\r\n".join(SIP_INVITE))

# ── MQTT 3.1.1 (OASIS MQTT 3.1.1 §2–3): what a broker sends the agent ────────────────────────────────
def mqtt_string(text):
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def mqtt_packet(header, body):
    """Fixed header (type and flags, Remaining Length in 7-bit groups, §2.2.3) then the body."""
    length, encoded = len(body), b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            break
    return bytes([header]) + encoded + body


MQTT_CONNACK = mqtt_packet(0x20, b"\x00\x00")
MQTT_SUBACK = mqtt_packet(0x90, struct.pack(">H", 1) + b"\x01")
MQTT_PRESS = mqtt_packet(0x32, mqtt_string("intercom/dev/door/set") + struct.pack(">H", 7) + b"PRESS")
MQTT_RETAINED = mqtt_packet(0x31, mqtt_string("homeassistant/event/x/ring/config") + b'{"event_types":["ring"]}' * 8)
write("FuzzMQTT", "connack.bin", MQTT_CONNACK)
write("FuzzMQTT", "session.bin", MQTT_CONNACK + MQTT_SUBACK + MQTT_PRESS + mqtt_packet(0xD0, b""))
write("FuzzMQTT", "retained-two-byte-length.bin", MQTT_CONNACK + MQTT_RETAINED)
write("FuzzMQTT", "connect.bin", mqtt_packet(0x10, mqtt_string("MQTT") + b"\x04\xee\x00\x1e" + mqtt_string("intercom-dev")
                                             + mqtt_string("intercom/dev/availability") + mqtt_string("offline")
                                             + mqtt_string("ha") + mqtt_string("secret")))
write("FuzzMQTT", "subscribe.bin", mqtt_packet(0x82, struct.pack(">H", 1) + mqtt_string("intercom/+/door/set") + b"\x01"))

# ── RFC 4733 telephone-events: 8-byte records, RTP timestamp then the 4-byte payload (§2.3) ─────────────
def telephone_event(timestamp, event, end, duration, volume=10):
    return struct.pack(">IBBH", timestamp, event, (0x80 if end else 0) | volume, duration)


PRESS_ONE = b"".join([telephone_event(100, 1, False, 0), telephone_event(100, 1, False, 400)]
                     + [telephone_event(100, 1, True, 800)] * 3)
write("FuzzTelephoneEvent", "press.bin", PRESS_ONE)
write("FuzzTelephoneEvent", "same-key-twice.bin", PRESS_ONE + PRESS_ONE.replace(struct.pack(">I", 100), struct.pack(">I", 1500)))
write("FuzzTelephoneEvent", "long-segment.bin", telephone_event(500, 9, False, 0xFFFF) + telephone_event(500 + 0xFFFF, 9, True, 200))

# ── mDNS (RFC 6762): Chromium's answer for a candidate's name (A with cache-flush, AAAA by pointer), a name ──
def mdns_name(text):
    return b"".join(bytes([len(label)]) + label.encode() for label in text.split(".")) + b"\0"


MDNS_NAME = "ee1cd255-7680-4301-bd64-989e0413ede7.local"
write("FuzzMDNS", "chromium-answer.bin", struct.pack(">HHHHHH", 0, 0x8400, 0, 2, 0, 0) + mdns_name(MDNS_NAME)
      + struct.pack(">HHIH", 1, 0x8001, 120, 4) + bytes([192, 168, 7, 23])
      + b"\xc0\x0c" + struct.pack(">HHIH", 28, 0x8001, 120, 16) + bytes(15) + b"\x01")
write("FuzzMDNS", "query.bin", struct.pack(">HHHHHH", 0, 0, 1, 0, 0, 0) + mdns_name(MDNS_NAME) + struct.pack(">HH", 1, 0x8001))
write("FuzzMDNS", "name.txt", MDNS_NAME)

# ── Plain SIP audio offers for SIPAudioAnswerer (SIPp's uac body; a baresip-like opus/G.711/DTMF offer) ──
write("FuzzSDP", "sipp-pcmu.sdp", "\r\n".join([
    "v=0", "o=user1 53655765 2353687637 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0",
    "m=audio 6000 RTP/AVP 0", "a=rtpmap:0 PCMU/8000", ""]))
write("FuzzSDP", "baresip-audio-video.sdp", "\r\n".join([
    "v=0", "o=- 1652172519 3271838003 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
    "m=audio 10462 RTP/AVP 96 0 8 101", "a=rtpmap:96 opus/48000/2", "a=fmtp:96 stereo=1;sprop-stereo=1",
    "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000", "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15",
    "a=sendrecv", "a=ptime:20", "m=video 10464 RTP/AVP 97", "a=rtpmap:97 VP8/90000", ""]))
# Opus only (RFC 7587): the answerer's G.711 preference finds nothing first, so Opus is chosen; over SDES too.
write("FuzzSDP", "opus-only.sdp", "\r\n".join([
    "v=0", "o=- 3 3 IN IP4 198.51.100.8", "s=-", "c=IN IP4 198.51.100.8", "t=0 0",
    "m=audio 7078 RTP/AVP 98 101", "a=rtpmap:98 OPUS/48000/2", "a=fmtp:98 useinbandfec=1; stereo=0",
    "a=rtpmap:101 telephone-event/48000", "a=ptime:20", "a=sendrecv", ""]))
write("FuzzSDP", "opus-srtp.sdp", "\r\n".join([
    "v=0", "o=- 4 4 IN IP4 198.51.100.8", "s=-", "c=IN IP4 198.51.100.8", "t=0 0",
    "m=audio 7078 RTP/SAVP 111", "a=rtpmap:111 opus/48000/2",
    "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR", "a=recvonly", ""]))
# ── A SIP video offer for SIPVideoAnswerer: AVPF with feedback, H.264 before VP8, send-only ──
write("FuzzSDP", "sip-avpf-video.sdp", "\r\n".join([
    "v=0", "o=- 7 7 IN IP4 203.0.113.9", "s=-", "c=IN IP4 203.0.113.9", "t=0 0",
    "m=audio 5004 RTP/AVP 8", "a=rtpmap:8 PCMA/8000",
    "m=video 5006 RTP/AVPF 97 98", "c=IN IP4 203.0.113.10", "a=rtpmap:97 H264/90000", "a=rtpmap:98 VP8/90000",
    "a=rtcp-fb:98 nack pli", "a=rtcp-fb:98 ccm fir", "a=sendonly", ""]))
# SDES-SRTP offers (RFC 4568 §9.1): baresip's srtp-mand (both suites), and crypto lines with a lifetime, an MKI,
# a session parameter and malformed keys, which the answerer skips.
SDES_KEY = "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR"
write("FuzzSDP", "baresip-srtp-mand.sdp", "\r\n".join([
    "v=0", "o=- 1652172519 3271838003 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
    "m=audio 10462 RTP/SAVP 0 8 101", "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000",
    "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15",
    f"a=crypto:1 AES_CM_128_HMAC_SHA1_32 inline:{SDES_KEY}", f"a=crypto:2 AES_CM_128_HMAC_SHA1_80 inline:{SDES_KEY}",
    "a=sendrecv", "a=ptime:20", ""]))
write("FuzzSDP", "sdes-crypto-shapes.sdp", "\r\n".join([
    "v=0", "o=- 1 1 IN IP4 203.0.113.5", "s=-", "c=IN IP4 203.0.113.5", "t=0 0",
    "m=audio 4000 RTP/SAVP 0", f"a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:{SDES_KEY}|2^20|1:4",
    f"a=crypto:2 AES_CM_128_HMAC_SHA1_80 inline:{SDES_KEY} UNENCRYPTED_SRTCP",
    "a=crypto:3 AES_CM_128_HMAC_SHA1_80 inline:Zm9vYmFy", "a=crypto:x AES_256_CM_HMAC_SHA1_80 inline:!",
    f"a=crypto:123456789 AES_CM_128_HMAC_SHA1_32 inline:{SDES_KEY}|2^31",
    "m=audio 4002 RTP/AVP 8", ""]))
