"""A minimal stdlib WebSocket client (RFC 6455) for tests that talk to intercom-server's /parse (LiveQuery) and
/signal endpoints frame by frame: handshake with optional extra headers and source address, masked text frames
out, text frames in (pings answered, close reported as None).

    from websocket import WebSocket
    ws = WebSocket.connect("ws://127.0.0.1:1337/signal", headers={"X-Forwarded-For": "203.0.113.5"})
    ws.send_json({"op": "join", "token": token})
    frame = ws.recv_json(timeout=2)      # a dict, None when the server closed, raises TimeoutError on silence
"""

import base64
import json
import os
import socket
import struct
import time
import urllib.parse


class WebSocket:
    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.closed = False

    @classmethod
    def connect(cls, url, headers=None, source=None, timeout=5):
        parts = urllib.parse.urlsplit(url)
        sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout,
                                        source_address=(source, 0) if source else None)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {parts.path or '/'} HTTP/1.1", f"Host: {parts.hostname}:{parts.port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        ws = cls(sock)
        head = ws._read_until(b"\r\n\r\n", time.monotonic() + timeout)
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            sock.close()
            raise ConnectionError(f"WebSocket upgrade refused: {status.decode(errors='replace')}")
        return ws

    def _read_until(self, marker, deadline):
        while marker not in self.buffer:
            self._fill(deadline)
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def _fill(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no data from the server in time")
        self.sock.settimeout(remaining)
        try:
            data = self.sock.recv(65536)
        except socket.timeout as e:
            raise TimeoutError("no data from the server in time") from e
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def _read_exact(self, count, deadline):
        while len(self.buffer) < count:
            self._fill(deadline)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode, payload):
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_text(self, text):
        self._send_frame(0x1, text.encode())

    def send_json(self, value):
        self.send_text(json.dumps(value))

    def recv_text(self, timeout=5):
        """The next text frame; None once the server closed (close frame or EOF); TimeoutError on silence."""
        deadline = time.monotonic() + timeout
        if self.closed:
            return None
        try:
            while True:
                first, second = self._read_exact(2, deadline)
                opcode, length = first & 0x0F, second & 0x7F
                if length == 126:
                    length = struct.unpack("!H", self._read_exact(2, deadline))[0]
                elif length == 127:
                    length = struct.unpack("!Q", self._read_exact(8, deadline))[0]
                payload = self._read_exact(length, deadline)
                if opcode == 0x9:
                    self._send_frame(0xA, payload)
                elif opcode == 0x8:
                    self.closed = True
                    return None
                elif opcode == 0x1:
                    return payload.decode()
        except ConnectionError:
            self.closed = True
            return None

    def recv_json(self, timeout=5):
        text = self.recv_text(timeout)
        return None if text is None else json.loads(text)

    def recv_until(self, predicate, timeout=5):
        """Frames until one satisfies `predicate` (returned); None if the socket closed or the time ran out."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                frame = self.recv_json(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return None
            if frame is None or predicate(frame):
                return frame

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
