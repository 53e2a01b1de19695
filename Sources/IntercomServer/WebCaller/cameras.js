// Switching cameras in a call (issue #22, docs/backend.md "cameras"): the device's named cameras, which it
// advertises in a `cameras` signal and films on `{"type":"camera","name":…}`, and this page's own camera,
// front or back (`facingMode`) on a phone, swapped on the existing sender without renegotiation.

const NAME = /^[a-z0-9_-]{1,32}$/;
const MAX_CAMERAS = 8;

/** A `cameras` signal's content, checked as the device and server check it (ParseWire SignalCamera); null
 * when it is not usable. */
export function parseCameras(data) {
  const names = data && data.names;
  if (!Array.isArray(names) || names.length < 1 || names.length > MAX_CAMERAS) return null;
  if (!names.every((n) => typeof n === 'string' && NAME.test(n)) || new Set(names).size !== names.length) return null;
  if (typeof data.active !== 'string' || !names.includes(data.active)) return null;
  return { names: names.slice(), active: data.active };
}

/** The camera after the active one, round the list. */
export function nextCamera({ names, active }) {
  return names[(names.indexOf(active) + 1) % names.length];
}

/** How many cameras this browser has (0 when it cannot tell). */
export async function localCameraCount() {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((d) => d.kind === 'videoinput').length;
  } catch {
    return 0;
  }
}

/** Replaces `stream`'s video track with the other facing camera on the same RTCRtpSender (replaceTrack: no
 * new offer); returns the new facing mode. The old track stops, the new one keeps `enabled` as it was. */
export async function switchFacing(pc, stream, facing) {
  const next = facing === 'environment' ? 'user' : 'environment';
  const old = stream.getVideoTracks()[0];
  const fresh = await navigator.mediaDevices.getUserMedia({
    video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: { exact: next } },
  });
  const track = fresh.getVideoTracks()[0];
  if (old) track.enabled = old.enabled;
  const sender = pc?.getSenders().find((s) => s.track && s.track.kind === 'video');
  if (sender) await sender.replaceTrack(track);
  if (old) { stream.removeTrack(old); old.stop(); }
  stream.addTrack(track);
  return next;
}
