#!/usr/bin/python3
"""Plays a 1 kHz tone into hw:Loopback,0 with aplay while arecord captures hw:Loopback,1, then checks
that the recording holds that tone (Goertzel power at 1 kHz vs. nearby bins) and that playback was paced
in real time. Runs inside the hardware harness guest. Exit 0 = tone came back, 1 = it did not."""
import math
import struct
import subprocess
import sys
import time
import wave

RATE, TONE_HZ, SECONDS = 48000, 1000.0, 1.0
PLAY, RECORD = "/tmp/tone-play.wav", "/tmp/tone-record.wav"


def write_tone(path):
    frames = b"".join(
        struct.pack("<h", int(12000 * math.sin(2 * math.pi * TONE_HZ * n / RATE)))
        for n in range(int(RATE * SECONDS)))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def goertzel_power(samples, freq):
    k = 2 * math.cos(2 * math.pi * freq / RATE)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + k * s1 - s2, s1
    return s1 * s1 + s2 * s2 - k * s1 * s2


def main():
    write_tone(PLAY)
    fmt = ["-f", "S16_LE", "-r", str(RATE), "-c", "1"]
    recorder = subprocess.Popen(["arecord", "-q", "-D", "hw:Loopback,1,0", *fmt, "-d", "2", RECORD])
    time.sleep(0.3)
    started = time.monotonic()
    played = subprocess.run(["aplay", "-q", "-D", "hw:Loopback,0,0", PLAY])
    play_seconds = time.monotonic() - started
    recorder.wait(timeout=10)
    if played.returncode != 0 or recorder.returncode != 0:
        print(f"aplay status {played.returncode}, arecord status {recorder.returncode}")
        return 1
    with wave.open(RECORD, "rb") as w:
        raw = w.readframes(w.getnframes())
    samples = struct.unpack(f"<{len(raw) // 2}h", raw)
    loudest = max(range(0, len(samples) - 4800, 4800), key=lambda i: sum(abs(x) for x in samples[i:i + 4800]))
    window = samples[loudest:loudest + 4800]
    rms = math.sqrt(sum(x * x for x in window) / len(window))
    tone = goertzel_power(window, TONE_HZ)
    others = max(goertzel_power(window, f) for f in (500.0, 700.0, 1500.0, 2000.0))
    ratio_db = 10 * math.log10(tone / max(others, 1e-9)) if tone > 0 else -math.inf
    print(f"played {SECONDS:.1f} s of {TONE_HZ:.0f} Hz in {play_seconds:.2f} s; recorded {len(samples)} samples, "
          f"rms {rms:.0f}, 1 kHz is {ratio_db:.1f} dB above other bins")
    paced = SECONDS * 0.9 <= play_seconds <= SECONDS + 1.5
    ok = rms > 3000 and ratio_db > 30 and paced
    if not paced:
        print("playback was not paced in real time")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
