// One call, outgoing or incoming: the ActiveSessions row, the signaling room and the RTCPeerConnection.
// The side that accepts sends the SDP offer (SYSTEM.md §3), so an outgoing call answers the offer it gets.

import { SignalChannel } from './signal.js';
import { parseDate } from './parse.js';
import { nextCamera, parseCameras, switchFacing } from './cameras.js';

export const TERMINAL_STATES = new Set(['busy', 'declined', 'no-answer', 'ended', 'error']);
const DEFAULT_RING_MS = 60000;
const CONNECT_TIMEOUT_MS = 30000;
const DISCONNECTED_GRACE_MS = 15000;
// The talking indicator (watchTalking): getStats every 250 ms; on at -26 dBFS, off 800 ms after it fell below -34.
const TALK_POLL_MS = 250;
const TALK_ON_LEVEL = 0.05;
const TALK_OFF_LEVEL = 0.02;
const TALK_HOLD_MS = 800;
const WATCH_OFFER_TIMEOUT_MS = 20000; // a viewer waits this long for the device's offer
// Frames for the other party wait while its peer id is unknown (before it joins, while this page rejoins the
// room): at most this many, so a long wait cannot grow without bound; past it a send reports failure.
const TO_REMOTE_LIMIT = 100;

/** `{signalURL, token, title}` ⇄ the base64url text after `#watch=` in an invitation link. */
export function encodeWatchLink({ signalURL, token, title, partnerID }) {
  const fields = { u: signalURL, t: token, n: title };
  if (partnerID) fields.d = partnerID; // the party a viewer may take video from (see Call.isPartner)
  const bytes = new TextEncoder().encode(JSON.stringify(fields));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The invitation in `hash` (`#watch=…`), or null when there is none; throws on a damaged one. */
export function decodeWatchLink(hash) {
  const match = /^#watch=([A-Za-z0-9_-]+)$/.exec(hash || '');
  if (!match) {
    if ((hash || '').startsWith('#watch=')) throw new Error('This viewing link is damaged (it was cut off or altered).');
    return null;
  }
  let value;
  try {
    const text = atob(match[1].replace(/-/g, '+').replace(/_/g, '/'));
    value = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
  } catch {
    throw new Error('This viewing link is damaged (it was cut off or altered).');
  }
  if (!value || typeof value.u !== 'string' || typeof value.t !== 'string' || !value.u || !value.t) {
    throw new Error('This viewing link is incomplete.');
  }
  return {
    signalURL: value.u, token: value.t, title: typeof value.n === 'string' && value.n ? value.n : 'the call',
    partnerID: typeof value.d === 'string' && value.d ? value.d : null,
  };
}

function describeMediaError(e) {
  switch (e && e.name) {
    case 'NotAllowedError': return 'permission was denied';
    case 'NotFoundError': case 'OverconstrainedError': return 'no camera or microphone was found';
    case 'NotReadableError': return 'the device is in use by another application';
    case 'SecurityError': return 'the page is not allowed to use it';
    default: return (e && (e.message || e.name)) || String(e);
  }
}

/** Camera + microphone, falling back to microphone only, then to receive-only; never throws. */
export async function getLocalMedia() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    return {
      stream: null,
      warning: 'This browser cannot use a camera or microphone on this page (it needs HTTPS or localhost). '
        + 'You can still see and hear the other side.',
    };
  }
  const audio = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio, video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' },
    });
    return { stream, warning: null };
  } catch (videoError) {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio });
      return { stream, warning: `Camera unavailable (${describeMediaError(videoError)}): sending audio only.` };
    } catch (audioError) {
      return {
        stream: null,
        warning: `Camera and microphone unavailable (${describeMediaError(audioError)}): you can see and hear `
          + 'the other side, but they cannot see or hear you.',
      };
    }
  }
}

function normalizeIceServers(list) {
  if (!Array.isArray(list)) return [];
  return list.filter((s) => s && (typeof s.urls === 'string' || Array.isArray(s.urls)) && s.urls.length)
    .map((s) => {
      const out = { urls: s.urls };
      if (s.username) out.username = s.username;
      if (s.credential) out.credential = s.credential;
      return out;
    });
}

function ringDuration(expiresAt) {
  // The row's expiresAt is the server's ring time; a clock far off from the server's falls back to 60 s.
  const ms = parseDate(expiresAt) - Date.now();
  return Number.isFinite(ms) && ms >= 3000 && ms <= 600000 ? ms : DEFAULT_RING_MS;
}

export class Call {
  /**
   * @param opts.parse     ParseClient (signed in)
   * @param opts.me        {userID, title}
   * @param opts.direction 'outgoing' | 'incoming' | 'watch' (a view-only viewer of someone else's call)
   * @param opts.remote    {userID, title, capabilities}
   * @param opts.row       the ActiveSessions row (incoming calls)
   * @param opts.ui        {onState(call, state, message), onLocalStream(stream), onRemoteStream(stream), onNotice(text),
   *                        onRemoteMedia(call, {audio, video})}
   * @param opts.log       (text) => void
   */
  constructor({ parse, me, direction, remote, row = null, ui, log }) {
    this.parse = parse;
    this.me = me;
    this.direction = direction;
    this.remote = remote;
    this.row = row;
    this.ui = ui;
    this.log = log || (() => {});
    this.state = null;
    this.finished = false;
    this.answered = false; // an offer was sent or received
    this.reachedInCall = false;
    this.rowId = null;
    this.sessionID = row ? row.sessionID || null : null; // for viewer invitations
    this.signal = null;
    this.pc = null;
    this.remotePeerId = null;
    this.peers = new Map(); // peerId → {role, userId} of the room's members, from joined / peer-joined
    this.toRemote = []; // frames waiting for the remote peer id (at most TO_REMOTE_LIMIT)
    this.pendingCandidates = []; // remote candidates waiting for the remote description
    this.localStream = null;
    this.remoteStream = null;
    this.iceServers = [];
    this.timers = new Map();
    this.muted = false;
    this.cameraOff = false;
    this.lastStats = null;
    this.remoteCameras = null; // {names, active}: the device's cameras, from its `cameras` signal
    this.facing = 'user'; // this page's camera: 'user' (front) or 'environment' (back)
    this.offersReceived = 0;
    // performance.now() of call phases, in stats().timings: rowCreated (the ActiveSessions row exists),
    // offerReceived (the device's SDP offer arrived), signalLost / signalRejoined (the last drop of the signaling
    // socket mid-call and the rejoin after it).
    this.timings = {};
  }

  get hasDoor() {
    return Array.isArray(this.remote.capabilities) && this.remote.capabilities.includes('door');
  }

  /** The other side streams this call to view-only watchers too (an intercom device advertises `viewers`). */
  get acceptsViewers() {
    return this.direction !== 'watch' && !!this.sessionID && Array.isArray(this.remote.capabilities)
      && this.remote.capabilities.includes('viewers');
  }

  setState(state, message) {
    if (this.finished || this.finishing) return;
    this.state = state;
    this.log(`call ${this.direction}: ${state}${message ? ` — ${message}` : ''}`);
    this.ui.onState(this, state, message);
  }

  setTimer(name, ms, fn) {
    this.clearTimer(name);
    this.timers.set(name, setTimeout(() => { this.timers.delete(name); fn(); }, ms));
  }

  clearTimer(name) {
    if (this.timers.has(name)) { clearTimeout(this.timers.get(name)); this.timers.delete(name); }
  }

  // ── outgoing ──

  async startOutgoing() {
    this.setState('calling', `Calling ${this.remote.title}…`);
    const media = await getLocalMedia();
    if (this.finished) { media.stream?.getTracks().forEach((t) => t.stop()); return; }
    this.useLocalMedia(media);
    let row;
    try {
      row = await this.parse.create('ActiveSessions', {
        callerID: this.me.userID, callerTitle: this.me.title, receiverID: this.remote.userID,
        isVideo: true, isAudio: true,
      });
    } catch (e) {
      this.fail(`Could not place the call: ${e.message}`, false);
      return;
    }
    this.timings.rowCreated = performance.now();
    this.rowId = row.objectId || null;
    this.sessionID = row.sessionID || null;
    if (this.finished) { this.deleteRow(); return; }
    if (!row.signalURL || !row.subscriberToken) {
      this.fail('The server created the call but returned no signaling URL or token.', false);
      return;
    }
    this.iceServers = row.iceServers || [];
    this.setTimer('ring', ringDuration(row.expiresAt), () => {
      if (this.state === 'calling' || this.state === 'ringing') {
        this.sendRemote({ type: 'bye', reason: 'timeout' });
        this.finish('no-answer', `${this.remote.title} did not answer.`);
      }
    });
    await this.join(row.signalURL, row.subscriberToken);
  }

  // ── incoming ──

  async startIncoming() {
    const row = this.row;
    this.iceServers = row.iceServers || [];
    this.setState('incoming', `${this.remote.title} is calling`);
    this.setTimer('ring', ringDuration(row.expiresAt), () => {
      if (this.state === 'incoming') {
        this.sendRemote({ type: 'bye', reason: 'timeout' });
        this.finish('ended', `Missed call from ${this.remote.title}.`);
      }
    });
    if (!row.signalURL || !row.publisherToken) {
      this.fail('The incoming call has no signaling URL or token.', false);
      return;
    }
    await this.join(row.signalURL, row.publisherToken);
    if (!this.finished) this.sendRemote({ type: 'ringing' });
  }

  /** While another call is up: join, send `bye {reason:"busy"}` to the caller, leave. */
  async rejectBusy() {
    this.busyReject = true;
    this.state = 'busy-reject';
    this.setTimer('busy', 10000, () => this.finish('ended', `Missed call from ${this.remote.title} (busy).`));
    if (!this.row.signalURL || !this.row.publisherToken) { this.finish('ended', 'busy'); return; }
    await this.join(this.row.signalURL, this.row.publisherToken);
    if (this.finished || this.finishing) return;
    this.sendRemote({ type: 'bye', reason: 'busy' }); // queued until the caller's peer id is known
    if (this.remotePeerId) this.finish('ended', `Missed call from ${this.remote.title} (busy).`);
  }

  // ── watching (view only) ──

  /**
   * Joins someone else's call with a view-only token from an invitation link: the device sends this page its
   * own offer (video only) and this page answers it without a camera or microphone.
   */
  async startWatching(signalURL, token) {
    this.setState('connecting', `Joining ${this.remote.title}…`);
    this.setTimer('offer', WATCH_OFFER_TIMEOUT_MS, () => {
      if (!this.pc) this.fail(`${this.remote.title} did not send its video (the call may have ended).`);
    });
    await this.join(signalURL, token);
  }

  /**
   * A link that lets someone else watch this call (video only) until the view-only token expires or the call
   * ends. The token travels in the fragment, which browsers never send to a server.
   */
  async inviteLink(pageURL) {
    if (!this.sessionID) throw new Error('This call has no session to invite a viewer to.');
    const minted = await this.parse.callFunction('viewerToken', { sessionID: this.sessionID });
    if (!minted || !minted.token || !minted.signalURL) {
      throw new Error('The server answered without a viewer token or signaling URL.');
    }
    const link = encodeWatchLink({ signalURL: minted.signalURL, token: minted.token, title: this.remote.title,
                                   partnerID: this.remote.userID });
    return { url: `${pageURL.split('#')[0]}#watch=${link}`, expiresAt: parseDate(minted.expiresAt) };
  }

  async accept() {
    if (this.finished || this.state !== 'incoming') return;
    this.clearTimer('ring');
    this.answered = true;
    this.setState('connecting', `Connecting to ${this.remote.title}…`);
    const media = await getLocalMedia();
    if (this.finished) { media.stream?.getTracks().forEach((t) => t.stop()); return; }
    this.useLocalMedia(media);
    try {
      const pc = this.createPeerConnection();
      const tracks = this.localStream ? this.localStream.getTracks() : [];
      for (const track of tracks) pc.addTrack(track, this.localStream);
      for (const kind of ['audio', 'video']) {
        if (!tracks.some((t) => t.kind === kind)) pc.addTransceiver(kind, { direction: 'recvonly' });
      }
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      this.sendRemote({ type: 'offer', sdp: pc.localDescription.sdp });
    } catch (e) {
      this.fail(`Could not start the media connection: ${e.message || e}`);
    }
  }

  decline() {
    if (this.finished) return;
    this.sendRemote({ type: 'bye', reason: 'declined' });
    this.finish('ended', `You declined the call from ${this.remote.title}.`);
  }

  // ── both ──

  hangup() {
    if (this.finished) return;
    if (this.direction === 'incoming' && this.state === 'incoming') { this.decline(); return; }
    if (this.direction === 'watch') {
      this.sendRemote({ type: 'bye', reason: 'hangup' });
      this.finish('ended', 'You stopped watching.');
      return;
    }
    const wasInCall = this.reachedInCall;
    this.sendRemote({ type: 'bye', reason: 'hangup' });
    this.finish('ended', wasInCall ? 'Call ended.' : 'Call cancelled.');
  }

  openDoor() {
    if (this.finished || !this.remotePeerId) return false;
    return this.sendRemote({ type: 'door', action: 'open' });
  }

  setMuted(muted) {
    this.muted = muted;
    this.localStream?.getAudioTracks().forEach((t) => { t.enabled = !muted; });
    if (this.reachedInCall) this.sendMediaState();
  }

  setCameraOff(off) {
    this.cameraOff = off;
    this.localStream?.getVideoTracks().forEach((t) => { t.enabled = !off; });
    if (this.reachedInCall) this.sendMediaState();
  }

  /** Whether the other side is talking, from the level of the audio this page receives (getStats
   * `audioLevel`, 0–1), every TALK_POLL_MS with hysteresis: on above TALK_ON_LEVEL, off after TALK_HOLD_MS
   * below TALK_OFF_LEVEL, so pauses between words do not make it flicker. */
  watchTalking() {
    if (this.finished || !this.pc || this.talkWatch) return;
    this.talkWatch = { talking: false, quietSince: null };
    const poll = async () => {
      if (this.finished || !this.pc) return;
      let level = 0;
      try {
        (await this.pc.getStats()).forEach((s) => {
          if (s.type === 'inbound-rtp' && (s.kind || s.mediaType) === 'audio' && typeof s.audioLevel === 'number') {
            level = Math.max(level, s.audioLevel);
          }
        });
      } catch { /* closed meanwhile */ }
      const watch = this.talkWatch;
      const now = performance.now();
      if (level >= TALK_ON_LEVEL) watch.quietSince = null;
      else if (level < TALK_OFF_LEVEL && watch.quietSince === null) watch.quietSince = now;
      const talking = level >= TALK_ON_LEVEL || (watch.talking && (watch.quietSince === null || now - watch.quietSince < TALK_HOLD_MS));
      if (talking !== watch.talking) {
        watch.talking = talking;
        this.ui.onRemoteTalking?.(this, talking);
      }
      if (!this.finished) this.setTimer('talking', TALK_POLL_MS, poll);
    };
    this.setTimer('talking', TALK_POLL_MS, poll);
  }

  /** Tells the other party what this page sends now (`{"type":"media"}`, docs/backend.md): when the call is
   * up and at every change of mute or camera, so its page shows it instead of a silent or frozen picture. */
  sendMediaState() {
    if (this.finished || this.direction === 'watch') return;
    this.sendRemote({ type: 'media', audio: this.hasLocalAudio && !this.muted, video: this.hasLocalVideo && !this.cameraOff });
  }

  get hasLocalAudio() { return !!this.localStream && this.localStream.getAudioTracks().length > 0; }
  get hasLocalVideo() { return !!this.localStream && this.localStream.getVideoTracks().length > 0; }

  useLocalMedia({ stream, warning }) {
    this.localStream = stream;
    if (warning) this.ui.onNotice(warning);
    this.ui.onLocalStream(stream);
  }

  async join(url, token) {
    this.signal = new SignalChannel({
      url, token, name: this.me.title, log: this.log,
      handlers: {
        onPeerJoined: (peer) => { this.rememberPeer(peer); this.considerPeer(peer); },
        onPeerLeft: (peerId, reason) => { this.peers.delete(peerId); this.onPeerLeft(peerId, reason); },
        onSignal: (from, data) => this.onSignal(from, data),
        onError: (code, message) => {
          // The server refused one of our signals (e.g. a viewer's late candidate) and keeps us in the room.
          if (code === 'forbidden') { console.warn(`signal refused: ${message}`); this.log(`signal refused: ${message}`); return; }
          // A refused text (flood, oversize): not relayed, the call goes on.
          if ((code === 'rate-limited' || code === 'bad-signal') && /camera(s|-error)? refused/.test(String(message))) {
            this.log(`camera request refused: ${message}`); this.ui.onCameraError?.(this, message); return;
          }
          if (code === 'rate-limited' || code === 'bad-signal') { this.log(`text refused: ${message}`); this.ui.onTextRefused?.(this, message); return; }
          this.fail(`Call error: ${message}.`);
        },
        // Mid-call the signaling socket is worth rejoining (SignalChannel does it): media is peer to peer and
        // goes on, but a hang-up, the door, texts and camera requests need the room.
        shouldRejoin: () => !this.finished && !this.finishing && this.reachedInCall && this.direction !== 'watch',
        onRejoining: () => this.onSignalRejoining(),
        onRejoined: (joined) => this.onSignalRejoined(joined),
        onClose: (event, why) => this.onSignalClosed(why),
      },
    });
    let joined;
    try {
      joined = await this.signal.open();
    } catch (e) {
      this.fail(e.message, false);
      return;
    }
    if (this.finished) { this.signal.close(); return; }
    if (Array.isArray(joined.iceServers) && joined.iceServers.length) this.iceServers = joined.iceServers;
    this.log(`joined as ${joined.peerId} (${joined.role}); peers: ${(joined.peers || []).map((p) => p.peerId).join(', ') || 'none'}`);
    for (const peer of joined.peers || []) this.rememberPeer(peer);
    for (const peer of joined.peers || []) this.considerPeer(peer);
  }

  rememberPeer(peer) {
    if (peer && peer.peerId) this.peers.set(peer.peerId, { role: peer.role, userId: peer.userId });
  }

  /**
   * Whether `peerId` is the other party of this call: a member with a party's token (role publisher) whose
   * user is the call row's other side (the receiver for a caller, the caller for a receiver, the inviting
   * side's partner for a viewer). Never simply whoever signals first: a view-only watcher in the same room
   * must not get this page's camera and microphone.
   */
  isPartner(peerId) {
    const peer = this.peers.get(peerId);
    if (!peer || peer.role !== 'publisher') return false;
    if (this.remote.userID) return peer.userId === this.remote.userID;
    // A viewer from an old link without the partner's id: any party (the server lets only parties offer).
    return this.direction === 'watch';
  }

  considerPeer(peer) {
    // A viewer talks only to the device that offers it video: that peer becomes the remote on its first signal.
    if (this.direction === 'watch') return;
    if (!peer || this.remotePeerId || !this.isPartner(peer.peerId)) return;
    this.setRemotePeer(peer.peerId);
  }

  setRemotePeer(peerId) {
    this.remotePeerId = peerId;
    this.log(`the other side is ${peerId}${this.toRemote.length ? `; sending the ${this.toRemote.length} signal(s) that waited` : ''}`);
    const queued = this.toRemote;
    this.toRemote = [];
    for (const data of queued) this.signal?.send(peerId, data);
    if (this.busyReject && queued.length) this.finish('ended', `Missed call from ${this.remote.title} (busy).`);
  }

  sendRemote(data) {
    if (!this.signal) return false;
    if (!this.remotePeerId) {
      if (this.toRemote.length >= TO_REMOTE_LIMIT) { this.log(`${data.type} not sent: too many waiting for the other side`); return false; }
      this.toRemote.push(data);
      return true;
    }
    return this.signal.send(this.remotePeerId, data);
  }

  onSignal(from, data) {
    if (this.finished || this.finishing) return;
    if (!this.remotePeerId && this.isPartner(from)) this.setRemotePeer(from);
    if (from !== this.remotePeerId) {
      const why = `ignoring ${data.type} from ${from}: not the other party of this call`;
      console.warn(why);
      this.log(why);
      return;
    }
    switch (data.type) {
      case 'ringing':
        if (this.direction === 'outgoing' && this.state === 'calling') {
          this.setState('ringing', `${this.remote.title} is ringing…`);
        }
        break;
      case 'offer':
        if (this.direction === 'outgoing' || this.direction === 'watch') this.handleOffer(data.sdp);
        break;
      case 'answer':
        if (this.direction === 'incoming' && this.pc) {
          this.pc.setRemoteDescription({ type: 'answer', sdp: data.sdp })
            .then(() => this.flushCandidates())
            .catch((e) => this.fail(`The other side's answer was not usable: ${e.message}`));
        }
        break;
      case 'candidate':
        this.addRemoteCandidate(data);
        break;
      case 'bye':
        this.onBye(data.reason);
        break;
      case 'door':
        this.log('door request ignored (a browser has no door)');
        break;
      case 'media':
        if (typeof data.audio !== 'boolean' || typeof data.video !== 'boolean') {
          this.log('media state ignored: audio and video must be true or false');
          break;
        }
        this.log(`the other side's microphone is ${data.audio ? 'on' : 'off'}, its camera ${data.video ? 'on' : 'off'}`);
        this.ui.onRemoteMedia?.(this, { audio: data.audio, video: data.video });
        break;
      case 'text':
        if (typeof data.id !== 'string' || typeof data.text !== 'string') { this.log('text ignored: id and text must be strings'); break; }
        this.sendRemote({ type: 'text-ack', id: data.id });
        this.ui.onText?.(this, data.text);
        break;
      case 'text-ack':
        if (typeof data.id === 'string') this.ui.onTextAck?.(this, data.id);
        break;
      case 'cameras': {
        const cameras = parseCameras(data);
        if (!cameras) { this.log('cameras ignored: names must be 1-8 distinct camera names and active one of them'); break; }
        this.remoteCameras = cameras;
        this.log(`the other side films with ${cameras.active} (cameras: ${cameras.names.join(', ')})`);
        this.ui.onRemoteCameras?.(this, cameras);
        break;
      }
      case 'camera-error':
        this.log(`camera switch refused: ${data.reason}`);
        this.ui.onCameraError?.(this, String(data.reason || 'the camera switch was refused'));
        break;
      default:
        this.log(`unknown signal ${data.type}`);
    }
  }

  /** Sends a text message to the other party (docs/backend.md); returns its id, or null when there is no
   * call to send it into. A viewer never sends (the server would refuse it). */
  sendText(text) {
    if (this.finished || this.direction === 'watch' || !this.signal) return null;
    this.textCount = (this.textCount || 0) + 1;
    const id = `t${this.textCount}-${Math.random().toString(36).slice(2, 8)}`;
    return this.sendRemote({ type: 'text', id, text }) ? id : null;
  }

  /** Asks the device to film with its camera `name` (`{"type":"camera"}`); the device answers `cameras`, or
   * `camera-error` for a name it does not have. */
  requestCamera(name) {
    if (this.finished || this.direction === 'watch' || !this.signal) return false;
    this.log(`asking for camera ${name}`);
    return this.sendRemote({ type: 'camera', name });
  }

  /** The device's next camera (its "Switch camera" button). */
  switchRemoteCamera() {
    return this.remoteCameras ? this.requestCamera(nextCamera(this.remoteCameras)) : false;
  }

  /** This page's own camera, front ↔ back, on the same sender (no renegotiation). */
  async switchOwnCamera() {
    if (!this.localStream || !this.hasLocalVideo) return;
    this.facing = await switchFacing(this.pc, this.localStream, this.facing);
    this.ui.onLocalStream(this.localStream);
  }

  /** A re-offer in the running call: the device restarts ICE because its addresses changed (new ICE
   * credentials, the same DTLS session and tracks); answered on the same RTCPeerConnection. */
  async renegotiate(sdp) {
    if (this.finished) return;
    try {
      await this.pc.setRemoteDescription({ type: 'offer', sdp });
      const answer = await this.pc.createAnswer();
      await this.pc.setLocalDescription(answer);
      this.sendRemote({ type: 'answer', sdp: this.pc.localDescription.sdp });
      this.flushCandidates();
      this.log('the other side restarted the connection (ICE restart): answered');
    } catch (e) {
      this.log(`re-offer not usable: ${e.message}`);
    }
  }

  async handleOffer(sdp) {
    this.offersReceived += 1;
    if (this.pc) { this.renegotiate(sdp); return; }
    this.timings.offerReceived = performance.now();
    this.clearTimer('ring');
    this.clearTimer('offer');
    this.answered = true;
    this.setState('connecting', `Connecting to ${this.remote.title}…`);
    try {
      const pc = this.createPeerConnection();
      await pc.setRemoteDescription({ type: 'offer', sdp });
      if (this.localStream) for (const track of this.localStream.getTracks()) pc.addTrack(track, this.localStream);
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      this.sendRemote({ type: 'answer', sdp: pc.localDescription.sdp });
      this.flushCandidates();
    } catch (e) {
      this.fail(`Could not answer the other side's offer: ${e.message || e}`);
    }
  }

  createPeerConnection() {
    const pc = new RTCPeerConnection({ iceServers: normalizeIceServers(this.iceServers), bundlePolicy: 'max-bundle' });
    this.pc = pc;
    pc.onicecandidate = (event) => {
      if (!event.candidate) {
        this.sendRemote({ type: 'candidate', candidate: null });
      } else if (event.candidate.candidate) {
        this.sendRemote({
          type: 'candidate', candidate: event.candidate.candidate,
          sdpMid: event.candidate.sdpMid, sdpMLineIndex: event.candidate.sdpMLineIndex,
        });
      }
    };
    pc.ontrack = (event) => {
      if (!this.remoteStream) this.remoteStream = new MediaStream();
      if (!this.remoteStream.getTracks().includes(event.track)) this.remoteStream.addTrack(event.track);
      this.ui.onRemoteStream(this.remoteStream);
    };
    pc.onconnectionstatechange = () => this.onConnectionState(pc.connectionState);
    this.setTimer('connect', CONNECT_TIMEOUT_MS, () => {
      if (!this.reachedInCall) this.fail('The media connection did not come up within 30 seconds.');
    });
    return pc;
  }

  onConnectionState(state) {
    if (this.finished || this.finishing) return;
    this.log(`peer connection: ${state}`);
    switch (state) {
      case 'connected':
        this.clearTimer('connect');
        this.clearTimer('disconnected');
        if (this.state !== 'in-call') {
          this.reachedInCall = true;
          this.setState('in-call', `In call with ${this.remote.title}`);
          this.sendMediaState();
          this.watchTalking();
        }
        break;
      case 'disconnected':
        this.ui.onNotice('The connection is interrupted; trying to recover…');
        this.setTimer('disconnected', DISCONNECTED_GRACE_MS, () => this.fail('The connection was lost.'));
        break;
      case 'failed':
        this.fail('The media connection failed: no network path between you and the other side '
          + '(a TURN relay may be needed).');
        break;
      default:
        break;
    }
  }

  addRemoteCandidate(data) {
    const candidate = data.candidate === null || data.candidate === undefined
      ? null
      : { candidate: data.candidate, sdpMid: data.sdpMid ?? null, sdpMLineIndex: data.sdpMLineIndex ?? null };
    if (!this.pc || !this.pc.remoteDescription) { this.pendingCandidates.push(candidate); return; }
    this.applyCandidate(candidate);
  }

  applyCandidate(candidate) {
    // End-of-candidates (null) is a hint only; browsers differ on accepting it, so failures are just logged.
    const p = candidate ? this.pc.addIceCandidate(candidate) : this.pc.addIceCandidate();
    p.catch((e) => this.log(`addIceCandidate(${candidate ? candidate.candidate : 'end'}) failed: ${e.message}`));
  }

  flushCandidates() {
    const pending = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const c of pending) this.applyCandidate(c);
  }

  onBye(reason) {
    const who = this.remote.title;
    if (this.direction === 'watch') {
      if (reason === 'busy') this.finish('busy', `${who} already has as many viewers as it takes.`);
      else this.finish('ended', `The call with ${who} ended.`);
      return;
    }
    if (this.direction === 'outgoing' && !this.answered) {
      switch (reason) {
        case 'busy': this.finish('busy', `${who} is busy.`); return;
        case 'timeout': this.finish('no-answer', `${who} did not answer.`); return;
        case 'error': this.finish('error', `${who} could not take the call.`); return;
        default: this.finish('declined', `${who} declined the call.`); return;
      }
    }
    if (this.direction === 'incoming' && this.state === 'incoming') {
      this.finish('ended', `Missed call from ${who}.`);
      return;
    }
    if (reason === 'error') { this.finish('error', `The call with ${who} ended because of an error on their side.`); return; }
    this.finish('ended', `${who} hung up.`);
  }

  onPeerLeft(peerId, reason) {
    if (this.finished || peerId !== this.remotePeerId) return;
    const why = reason ? ` (${reason})` : '';
    if (reason === 'replaced') {
      // The other side joined again with the same token (its socket reconnected) before the server noticed the
      // old one: its new peer id arrives right after (peer-joined) and becomes the remote. Not a departure.
      this.log(`the other side rejoined the call server${why}`);
      this.remotePeerId = null;
      return;
    }
    const media = this.pc ? this.pc.connectionState : 'none';
    if (this.reachedInCall && (media === 'connected' || media === 'disconnected')) {
      // Media is peer to peer: the other side losing the call server (its network cut from the backend, a
      // half-open socket the server timed out, the fleet instance of its socket gone) is not a hang-up, which
      // comes as a bye. The call goes on while media flows — the peer connection's own 'disconnected' grace and
      // 'failed' end it if the other side is really gone — and the other side's next join (its signaling
      // reconnects) becomes the remote again.
      this.log(`the other side left the call server${why}; the call goes on while media flows`);
      this.ui.onNotice(`${this.remote.title} lost its connection to the call server; the call goes on.`);
      this.remotePeerId = null;
      return;
    }
    if (this.direction === 'incoming' && this.state === 'incoming') {
      this.finish('ended', `Missed call from ${this.remote.title}.`);
    } else {
      this.finish('ended', `${this.remote.title} left the call${why}.`);
    }
  }

  /** Our own signaling socket dropped mid-call and SignalChannel rejoins: the room's peer ids die with it (the
   * rejoined room, on a fleet often on another instance, gives everyone new ones), so the other side is found
   * again by isPartner on the new `joined` and peer-joined; meanwhile frames for it wait in toRemote. The
   * other side vanishing with our socket is not it leaving the call. */
  onSignalRejoining() {
    if (this.finished || this.finishing) return;
    this.timings.signalLost = performance.now();
    this.remotePeerId = null;
    this.peers.clear();
    this.log('the call server connection closed; rejoining (the call goes on while media flows)');
    this.ui.onNotice('The connection to the call server was lost; reconnecting… The call goes on meanwhile.');
  }

  onSignalRejoined(joined) {
    if (this.finished || this.finishing) return;
    this.timings.signalRejoined = performance.now();
    this.log(`rejoined as ${joined.peerId}; peers: ${(joined.peers || []).map((p) => p.peerId).join(', ') || 'none'}`);
    this.peers.clear();
    for (const peer of joined.peers || []) this.rememberPeer(peer);
    for (const peer of joined.peers || []) this.considerPeer(peer);
    this.ui.onNotice('Reconnected to the call server.');
  }

  onSignalClosed(why) {
    if (this.finished || this.finishing) return;
    if (this.reachedInCall) {
      this.ui.onNotice(why
        ? `Could not reconnect to the call server (${why}). The call goes on while media flows, but hanging up, `
          + `the door and messages no longer reach ${this.remote.title}.`
        : 'The call server connection closed; the call goes on while media flows.');
    } else {
      this.fail('The connection to the call server was lost.', false);
    }
  }

  fail(message, tellRemote = true) {
    if (this.finished) return;
    if (tellRemote) this.sendRemote({ type: 'bye', reason: 'error' });
    this.finish('error', message);
  }

  deleteRow() {
    if (this.direction !== 'outgoing' || !this.rowId) return;
    const id = this.rowId;
    this.rowId = null;
    // 404 means the callee already took (deleted) it.
    this.parse.destroy('ActiveSessions', id).catch((e) => {
      if (e.code !== 101) this.log(`could not delete call row ${id}: ${e.message}`);
    });
  }

  async finish(state, message) {
    if (this.finished || this.finishing) return;
    this.finishing = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    // Keep the final numbers for window.intercom.stats() after the connection closes.
    if (this.pc) {
      const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 500));
      try { this.lastStats = await Promise.race([this.collectStats(), timeout]); } catch { /* closed */ }
    }
    this.finished = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.signal?.close(300); // lets a just-sent bye leave first
    if (this.pc) { try { this.pc.close(); } catch { /* closed */ } }
    this.localStream?.getTracks().forEach((t) => t.stop());
    this.deleteRow();
    this.state = state;
    this.log(`call ${this.direction}: ${state}${message ? ` — ${message}` : ''}`);
    this.ui.onState(this, state, message);
  }

  async collectStats() {
    const pc = this.pc;
    const out = {
      callState: this.state, connectionState: pc ? pc.connectionState : 'none',
      iceConnectionState: pc ? pc.iceConnectionState : 'none',
      framesDecoded: 0, framesReceived: 0, framesDropped: 0, frameWidth: 0, frameHeight: 0,
      videoPacketsReceived: 0, audioPacketsReceived: 0, audioPacketsLost: 0, videoPacketsLost: 0,
      nackCount: 0, pliCount: 0, freezeCount: 0, totalFreezesDuration: 0, concealedSamples: 0, totalSamplesReceived: 0,
      framesEncoded: 0, videoPacketsSent: 0, audioPacketsSent: 0, bytesReceived: 0, bytesSent: 0,
      roundTripTime: null, audioLevel: null, timings: { ...this.timings }, offersReceived: this.offersReceived,
      videoSSRC: null,
      // The signaling room: the channel's state ('joined', 'rejoining', 'closed'…), its successful joins (one
      // more per rejoin) and whether the other side's current peer id is known (signals can reach it).
      signalState: this.signal ? this.signal.state : 'none', signalJoins: this.signal ? this.signal.joins : 0,
      remoteKnown: !!this.remotePeerId,
    };
    if (!pc) return out;
    // Which camera this page sends (Flip my camera): its device, and whether the video sender carries it.
    const localTrack = this.localStream?.getVideoTracks()[0] || null;
    out.localCamera = localTrack ? localTrack.getSettings().deviceId || null : null;
    out.sendsLocalCamera = !!localTrack && pc.getSenders().some((s) => s.track === localTrack);
    out.signalingState = pc.signalingState;
    const report = await pc.getStats();
    report.forEach((s) => {
      const kind = s.kind || s.mediaType;
      if (s.type === 'inbound-rtp') {
        out.bytesReceived += s.bytesReceived || 0;
        if (kind === 'video') {
          out.videoSSRC = s.ssrc ?? out.videoSSRC;
          out.framesDecoded += s.framesDecoded || 0;
          out.framesReceived += s.framesReceived || 0;
          out.framesDropped += s.framesDropped || 0;
          out.videoPacketsReceived += s.packetsReceived || 0;
          out.videoPacketsLost += s.packetsLost || 0;
          out.frameWidth = s.frameWidth || out.frameWidth;
          out.frameHeight = s.frameHeight || out.frameHeight;
          out.nackCount += s.nackCount || 0;
          out.pliCount += s.pliCount || 0;
          out.freezeCount += s.freezeCount || 0;
          out.totalFreezesDuration += s.totalFreezesDuration || 0;
        } else if (kind === 'audio') {
          out.audioPacketsReceived += s.packetsReceived || 0;
          out.audioPacketsLost += s.packetsLost || 0;
          if (typeof s.audioLevel === 'number') out.audioLevel = s.audioLevel;
          out.concealedSamples += s.concealedSamples || 0;
          out.totalSamplesReceived += s.totalSamplesReceived || 0;
        }
      } else if (s.type === 'outbound-rtp') {
        out.bytesSent += s.bytesSent || 0;
        if (kind === 'video') {
          out.framesEncoded += s.framesEncoded || 0;
          out.videoPacketsSent += s.packetsSent || 0;
        } else if (kind === 'audio') {
          out.audioPacketsSent += s.packetsSent || 0;
        }
      } else if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
        if (typeof s.currentRoundTripTime === 'number') out.roundTripTime = s.currentRoundTripTime;
      }
    });
    return out;
  }

  async stats() {
    if (this.pc && !this.finished) return this.collectStats();
    return this.lastStats || this.collectStats();
  }
}
