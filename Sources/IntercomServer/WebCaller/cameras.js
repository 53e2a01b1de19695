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

/** Replaces `stream`'s video track with the other camera on the same RTCRtpSender (replaceTrack: no new
 * offer); returns the new facing mode. A phone's cameras are asked for by facing (`facingMode`); a computer's
 * have none, so there the next camera in the browser's list is taken. The old track stops, the new one keeps
 * `enabled` as it was. */
export async function switchFacing(pc, stream, facing) {
  const next = facing === 'environment' ? 'user' : 'environment';
  const old = stream.getVideoTracks()[0];
  const size = { width: { ideal: 640 }, height: { ideal: 480 } };
  const open = async (video) => {
    try {
      return await navigator.mediaDevices.getUserMedia({ video });
    } catch (e) {
      // Some phones open one camera at a time: let go of the current one and try again.
      if (e.name !== 'NotReadableError' || !old) throw e;
      old.stop();
      return navigator.mediaDevices.getUserMedia({ video });
    }
  };
  let fresh;
  try {
    fresh = await open({ ...size, facingMode: { exact: next } });
  } catch (e) {
    if (e.name !== 'OverconstrainedError' && e.name !== 'NotFoundError') throw e;
    const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
    const current = old ? old.getSettings().deviceId : null;
    const other = cameras[(cameras.findIndex((c) => c.deviceId === current) + 1) % cameras.length];
    if (!other || other.deviceId === current) throw e;
    fresh = await open({ ...size, deviceId: { exact: other.deviceId } });
  }
  const track = fresh.getVideoTracks()[0];
  if (old) track.enabled = old.enabled;
  const sender = pc?.getSenders().find((s) => s.track && s.track.kind === 'video');
  if (sender) await sender.replaceTrack(track);
  if (old) { stream.removeTrack(old); old.stop(); }
  stream.addTrack(track);
  return next;
}
