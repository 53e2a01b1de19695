// The web caller: sign in, presence, nearby list, calls. See SYSTEM.md §2–§4.

import { ParseClient, LiveQueryClient, geoPoint, parseDate, randomUUID } from './parse.js';
import { Call, TERMINAL_STATES, decodeWatchLink } from './call.js';
import { distanceKm, formatDistance, parseCoordinates } from './geo.js';
import { Tones } from './tones.js';
import { VisitsView } from './visits.js';
import { ChatPanel } from './chat.js';
import { CameraButtons } from './camera-buttons.js';

const APP_ID = 'intercom';
const HEARTBEAT_MS = 60000;
const DEVICE_REFRESH_MS = 15000;
const POLL_DOWN_MS = 8000; // LiveQuery down: poll for incoming calls this often
const POLL_UP_MS = 60000; // LiveQuery up: slow safety poll
const OUTCOME_DISPLAY_MS = 15000; // a finished call's outcome stays this long, then back to idle
const STORE = {
  anonymousId: 'intercom.anonymousId', installationId: 'intercom.installationId', name: 'intercom.name',
  lat: 'intercom.lat', lon: 'intercom.lon', radius: 'intercom.radius', signedIn: 'intercom.signedIn',
};

const $ = (id) => document.getElementById(id);
const el = {
  status: $('status'), error: $('error'), errorText: $('error-text'), errorDismiss: $('error-dismiss'),
  live: $('live-status'),
  form: $('signin-form'), name: $('name'), lat: $('lat'), lon: $('lon'), locate: $('locate'),
  signin: $('signin'), signout: $('signout'), signinError: $('signin-error'), identity: $('identity'), meDetails: $('me'), meSummary: $('me-summary'),
  devicesPanel: $('devices-panel'), radius: $('radius'), refresh: $('refresh'), devices: $('devices'),
  devicesEmpty: $('devices-empty'), devicesUpdated: $('devices-updated'),
  incomingPanel: $('incoming-panel'), incomingTitle: $('incoming-title'), accept: $('accept'), decline: $('decline'),
  callPanel: $('call-panel'), callTitle: $('call-title'), callStatus: $('call-status'),
  remoteVideo: $('remote-video'), remoteCameraOff: $('remote-camera-off'), remoteMedia: $('remote-media'), remoteTalking: $('remote-talking'), localVideo: $('local-video'), playAudio: $('play-audio'),
  mute: $('mute'), camera: $('camera'), door: $('door'), hangup: $('hangup'), dismiss: $('dismiss'),
  invite: $('invite'), invitePanel: $('invite-panel'), inviteLink: $('invite-link'), inviteCopy: $('invite-copy'),
  inviteHint: $('invite-hint'), signinPanel: $('signin-panel'),
  chat: { panel: $('chat'), list: $('chat-list'), form: $('chat-form'), input: $('chat-input'), send: $('chat-send'), hint: $('chat-hint') },
  visits: {
    panel: $('visits-panel'), details: $('visits'), badge: $('visits-badge'), list: $('visits-list'),
    empty: $('visits-empty'), older: $('visits-older'), newer: $('visits-newer'), pageLabel: $('visits-page'),
    refresh: $('visits-refresh'),
  },
};

function storeGet(key) { try { return localStorage.getItem(key); } catch { return null; } }
function storeSet(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode */ } }

function persistentId(key) {
  let id = storeGet(key);
  if (!id) { id = randomUUID(); storeSet(key, id); }
  return id;
}

const parse = new ParseClient({ appId: APP_ID, installationId: persistentId(STORE.installationId) });
const tones = new Tones();
const logLines = [];
function log(text) {
  const line = `${new Date().toISOString().slice(11, 23)} ${text}`;
  logLines.push(line);
  if (logLines.length > 300) logLines.shift();
  console.debug('[intercom]', text);
}
const visits = new VisitsView({ parse, elements: el.visits, storeGet, storeSet, log });

const app = {
  signedIn: false,
  me: null, // {userID, title, latitude, longitude}
  presenceId: null,
  devices: new Map(), // userID → ActiveUsers row
  liveQuery: null,
  liveUp: false,
  timers: { heartbeat: null, devices: null, poll: null, outcome: null },
  seenCallRows: new Set(),
  call: null, // the Call shown in the UI
  lastCall: null,
  busyCalls: new Set(),
  watching: false, // this page was opened from a viewing link and shows only that call
};

// ── messages ──

const errorKeys = new Set();
function showError(text, key = 'general') {
  errorKeys.add(key);
  el.errorText.textContent = text;
  el.error.hidden = false;
  el.error.dataset.key = key;
  log(`error: ${text}`);
}
function clearError(key) {
  if (key && el.error.dataset.key !== key) return;
  el.error.hidden = true;
  el.errorText.textContent = '';
  delete el.error.dataset.key;
}
function setStatus(text) { el.status.textContent = text; }

// ── call state exposed to the page and to tests ──

function setCallState(state) {
  document.body.dataset.callState = state;
}

// ── sign in and presence ──

function restoreForm() {
  el.name.value = storeGet(STORE.name) || '';
  el.lat.value = storeGet(STORE.lat) || '';
  el.lon.value = storeGet(STORE.lon) || '';
  const radius = storeGet(STORE.radius);
  if (radius && [...el.radius.options].some((o) => o.value === radius)) el.radius.value = radius;
}

function readForm() {
  const title = el.name.value.trim().replace(/\s+/g, ' ');
  if (!title) return { error: 'Please enter a display name.', field: el.name };
  const coords = parseCoordinates(el.lat.value, el.lon.value);
  if (coords.error) return { error: `${coords.error} Type it or use “Use my location”.`, field: el.lat };
  return { title, latitude: coords.latitude, longitude: coords.longitude };
}

async function onSubmit(event) {
  event.preventDefault();
  el.signinError.textContent = '';
  tones.unlock(); // a user gesture: allow the ringtone later
  const input = readForm();
  if (input.error) {
    el.signinError.textContent = input.error;
    input.field.focus();
    return;
  }
  storeSet(STORE.name, input.title);
  storeSet(STORE.lat, String(input.latitude));
  storeSet(STORE.lon, String(input.longitude));
  el.signin.disabled = true;
  try {
    if (!app.signedIn) await signIn(input);
    else await updateMe(input);
  } catch (e) {
    el.signinError.textContent = `Unexpected error: ${e.message || e}`;
    log(`sign-in crashed: ${e.stack || e}`);
  } finally {
    el.signin.disabled = false;
  }
}

async function signIn(input) {
  setStatus('Signing in…');
  try {
    await parse.logInAnonymously(persistentId(STORE.anonymousId));
  } catch (e) {
    el.signinError.textContent = `Sign-in failed: ${e.message}`;
    setStatus('Not signed in.');
    return;
  }
  app.me = { userID: parse.userId, title: input.title, latitude: input.latitude, longitude: input.longitude };
  try {
    await registerPresence();
  } catch (e) {
    el.signinError.textContent = `Signed in, but could not go online: ${e.message}`;
    setStatus('Not online.');
    return;
  }
  app.signedIn = true;
  storeSet(STORE.signedIn, '1');
  document.body.dataset.signedIn = 'true';
  document.body.dataset.userId = app.me.userID;
  el.signin.textContent = 'Update';
  el.signout.hidden = false;
  el.devicesPanel.hidden = false;
  showIdentity();
  el.meDetails.open = false;
  setStatus(`Online as ${app.me.title}. Waiting for calls.`);
  clearError();
  startLiveQuery();
  startTimers();
  pollIncoming();
  refreshDevices();
  visits.start(app.me.userID);
}

async function updateMe(input) {
  app.me.title = input.title;
  app.me.latitude = input.latitude;
  app.me.longitude = input.longitude;
  try {
    await registerPresence();
    showIdentity();
    el.meDetails.open = false;
    setStatus('Your name and location were updated.');
    refreshDevices();
  } catch (e) {
    el.signinError.textContent = `Could not update: ${e.message}`;
  }
}

function showIdentity() {
  el.identity.textContent = `Online as “${app.me.title}” (id ${app.me.userID}).`;
  el.meSummary.textContent = `${app.me.title} · ${app.me.latitude.toFixed(4)}, ${app.me.longitude.toFixed(4)}`;
}

function presenceFields() {
  return {
    userID: app.me.userID,
    userTitle: app.me.title,
    userLocation: geoPoint(app.me.latitude, app.me.longitude),
    deviceKind: 'browser',
    answerMode: 'button',
    capabilities: ['audio', 'video'],
  };
}

/** Upsert: PUT the known row; else query `userID == me`, then PUT or POST (SYSTEM.md §3). */
async function registerPresence(retry = true) {
  const fields = presenceFields();
  if (app.presenceId) {
    try {
      await parse.update('ActiveUsers', app.presenceId, fields);
      return;
    } catch (e) {
      if (e.code !== 101) throw e;
      app.presenceId = null; // swept as stale: create it again
    }
  }
  const rows = await parse.find('ActiveUsers', { userID: app.me.userID }, { limit: 1 });
  if (rows.length) {
    app.presenceId = rows[0].objectId;
    await parse.update('ActiveUsers', app.presenceId, fields);
    return;
  }
  try {
    const created = await parse.create('ActiveUsers', fields);
    app.presenceId = created.objectId;
  } catch (e) {
    if (e.code === 137 && retry) return registerPresence(false); // another tab created it meanwhile
    throw e;
  }
}

async function heartbeat() {
  if (!app.signedIn) return;
  try {
    await registerPresence();
    clearError('presence');
  } catch (e) {
    showError(`Could not refresh your online status: ${e.message} Retrying in a minute.`, 'presence');
  }
}

function goOffline({ keepalive = false } = {}) {
  if (app.presenceId) {
    const id = app.presenceId;
    app.presenceId = null;
    parse.destroy('ActiveUsers', id, { keepalive }).catch((e) => log(`could not delete presence: ${e.message}`));
  }
}

function signOut() {
  if (app.call && !app.call.finished) app.call.hangup();
  stopTimers();
  app.liveQuery?.stop();
  app.liveQuery = null;
  goOffline();
  app.signedIn = false;
  storeSet(STORE.signedIn, '0');
  document.body.dataset.signedIn = 'false';
  delete document.body.dataset.userId;
  el.signin.textContent = 'Sign in';
  el.signout.hidden = true;
  el.devicesPanel.hidden = true;
  visits.stop();
  el.identity.textContent = '';
  el.meSummary.textContent = '';
  el.meDetails.open = true;
  setLive('offline');
  setStatus('Signed out. You will not receive calls.');
}

function startTimers() {
  stopTimers();
  app.timers.heartbeat = setInterval(heartbeat, HEARTBEAT_MS);
  app.timers.devices = setInterval(() => { refreshDevices(); visits.refreshBadge(); }, DEVICE_REFRESH_MS);
}

function stopTimers() {
  clearInterval(app.timers.heartbeat);
  clearInterval(app.timers.devices);
  clearTimeout(app.timers.poll);
}

// ── incoming calls: LiveQuery, with polling as the fallback ──

function setLive(mode) {
  el.live.textContent = mode === 'live' ? 'live' : mode === 'polling' ? 'polling' : 'offline';
  el.live.dataset.mode = mode;
  el.live.title = mode === 'live' ? 'Incoming calls arrive instantly'
    : mode === 'polling' ? 'Live connection down: checking for calls every 8 seconds' : 'Not signed in';
}

function startLiveQuery() {
  app.liveQuery?.stop();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const lq = new LiveQueryClient({
    url: `${scheme}://${location.host}/parse`,
    appId: APP_ID,
    installationId: parse.installationId,
    sessionToken: parse.sessionToken,
    log,
    onStatus: (up) => {
      app.liveUp = up;
      setLive(up ? 'live' : 'polling');
      log(`LiveQuery ${up ? 'up' : 'down'}`);
      schedulePoll(up ? POLL_UP_MS : 1000);
    },
  });
  lq.subscribe({ className: 'ActiveSessions', where: { receiverID: app.me.userID } }, (op, object) => {
    if (op === 'create' || op === 'enter') onIncomingRow(object);
  });
  parse.onSession = (token) => lq.setSessionToken(token);
  app.liveQuery = lq;
  setLive('polling');
  lq.start();
}

function schedulePoll(delay) {
  clearTimeout(app.timers.poll);
  if (!app.signedIn) return;
  const base = delay ?? (app.liveUp ? POLL_UP_MS : POLL_DOWN_MS);
  app.timers.poll = setTimeout(pollIncoming, base + (Math.random() - 0.5) * Math.min(2000, base / 2));
}

async function pollIncoming() {
  if (!app.signedIn) return;
  try {
    const rows = await parse.find('ActiveSessions', { receiverID: app.me.userID }, { order: 'createdAt', limit: 20 });
    clearError('poll');
    for (const row of rows) onIncomingRow(row);
  } catch (e) {
    showError(`Could not check for incoming calls: ${e.message}`, 'poll');
  } finally {
    schedulePoll();
  }
}

async function onIncomingRow(row) {
  if (!row || !row.objectId || app.seenCallRows.has(row.objectId)) return;
  app.seenCallRows.add(row.objectId);
  if (!app.signedIn || row.receiverID !== app.me.userID) return;
  const expires = parseDate(row.expiresAt);
  if (Number.isFinite(expires) && expires < Date.now() - 30000) { log(`stale call row ${row.objectId} ignored`); return; }
  // Take the row (the receiver deletes it, so a call never rings twice; a 404 means another tab took it).
  try {
    await parse.destroy('ActiveSessions', row.objectId);
  } catch (e) {
    if (e.code !== 101) showError(`Could not pick up the incoming call: ${e.message}`);
    return;
  }
  const known = app.devices.get(row.callerID);
  const remote = {
    userID: row.callerID,
    title: row.callerTitle || known?.userTitle || 'Unknown caller',
    capabilities: known?.capabilities || [],
  };
  const call = new Call({ parse, me: app.me, direction: 'incoming', remote, row, ui: callUI, log });
  if (app.call && !app.call.finished) {
    // Busy: join, tell the caller, leave.
    log(`busy: rejecting call from ${remote.title}`);
    app.busyCalls.add(call);
    call.rejectBusy();
    return;
  }
  showCall(call);
  call.startIncoming();
}

// ── the nearby list ──

async function refreshDevices() {
  if (!app.signedIn) return;
  const radius = Number(el.radius.value);
  const here = { latitude: app.me.latitude, longitude: app.me.longitude };
  let rows;
  try {
    rows = await parse.find('ActiveUsers', {
      userLocation: { $nearSphere: geoPoint(here.latitude, here.longitude), $maxDistanceInMiles: radius },
    }, { limit: 100 });
    clearError('devices');
  } catch (e) {
    showError(`Could not load who is nearby: ${e.message}`, 'devices');
    return;
  }
  app.devices.clear();
  const others = [];
  for (const row of rows) {
    if (!row.userID) continue;
    app.devices.set(row.userID, row);
    if (row.userID === app.me.userID) continue;
    const loc = row.userLocation;
    const km = loc && Number.isFinite(loc.latitude) ? distanceKm(here, loc) : NaN;
    others.push({ row, km });
  }
  renderDevices(others, radius);
  el.devicesUpdated.textContent = `Updated ${new Date().toLocaleTimeString()}.`;
}

const KIND_TEXT = { intercom: 'Intercom', browser: 'Browser', app: 'App' };
const ANSWER_TEXT = {
  auto: 'answers automatically', button: 'answers by button', 'auto-after': 'answers automatically after a delay',
};

function renderDevices(items, radius) {
  const busy = app.call && !app.call.finished;
  const list = el.devices;
  list.replaceChildren();
  for (const { row, km } of items) {
    const li = document.createElement('li');
    li.className = 'device';
    li.dataset.userId = row.userID;
    li.dataset.title = row.userTitle || '';
    if (Number.isFinite(km)) li.dataset.distanceKm = km.toFixed(3);
    const main = document.createElement('div');
    main.className = 'device-main';
    const title = document.createElement('span');
    title.className = 'device-title';
    title.textContent = row.userTitle || '(no name)';
    const meta = document.createElement('span');
    meta.className = 'device-meta';
    const caps = Array.isArray(row.capabilities) ? row.capabilities : [];
    const parts = [
      Number.isFinite(km) ? formatDistance(km) : 'distance unknown',
      KIND_TEXT[row.deviceKind] || row.deviceKind || 'device',
      ANSWER_TEXT[row.answerMode] || (row.answerMode ? `answer: ${row.answerMode}` : null),
      caps.includes('door') ? 'door' : null,
    ].filter(Boolean);
    meta.textContent = parts.join(' · ');
    main.append(title, meta);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn accept call';
    button.dataset.userId = row.userID;
    button.textContent = 'Call';
    button.setAttribute('aria-label', `Call ${row.userTitle || 'this device'}`);
    button.disabled = busy;
    button.addEventListener('click', () => placeCall(row.userID));
    li.append(main, button);
    list.append(li);
  }
  el.devicesEmpty.hidden = items.length > 0;
  el.devicesEmpty.textContent = items.length ? ''
    : `No one else is online within ${radius} mile${radius === 1 ? '' : 's'}. Try a larger radius.`;
}

function updateCallButtons() {
  const busy = app.call && !app.call.finished;
  for (const b of el.devices.querySelectorAll('button.call')) b.disabled = busy;
}

// ── calls ──

const callUI = {
  onState: (call, state, message) => onCallState(call, state, message),
  onLocalStream: (stream) => {
    el.localVideo.srcObject = stream;
    el.localVideo.hidden = !stream || stream.getVideoTracks().length === 0;
  },
  onRemoteStream: (stream) => {
    if (el.remoteVideo.srcObject !== stream) el.remoteVideo.srcObject = stream;
    const p = el.remoteVideo.play();
    if (p && p.catch) {
      p.then(() => { el.playAudio.hidden = true; }).catch((e) => {
        if (e.name === 'NotAllowedError') el.playAudio.hidden = false;
        else log(`remote video play(): ${e.message}`);
      });
    }
  },
  onNotice: (text) => {
    setStatus(text);
    log(`notice: ${text}`);
  },
  onRemoteMedia: (call, media) => showRemoteMedia(call.remote.title, media),
  onRemoteTalking: (call, talking) => showRemoteTalking(call.remote.title, talking),
  onText: (call, text) => { if (call === app.call) chat.received(call.remote.title, text); },
  onTextAck: (call, id) => { if (call === app.call) chat.delivered(id); },
  onTextRefused: (call, message) => { if (call === app.call) chat.refused(message); },
  onRemoteCameras: (call, cameras) => cameraButtons.remoteCameras(call, cameras),
  onCameraError: (call, reason) => cameraButtons.refused(call, reason),
};

/** The call view's chat (chat.js): what it sends goes into the current call. */
const chat = new ChatPanel(el.chat, (text) => app.call?.sendText(text) ?? null);

/** The call view's "Switch camera" (the device's) and "Flip my camera" (this page's) buttons. */
const cameraButtons = new CameraButtons({ remote: $('switch-camera'), local: $('flip-camera'), notice: (text) => setStatus(text) });

/** The other side is talking (its received audio level, with hysteresis): a ring around its picture and a
 * line for screen readers. */
function showRemoteTalking(name, talking) {
  el.remoteVideo.closest('.videos').classList.toggle('talking', talking);
  el.remoteTalking.textContent = talking ? `${name} is talking` : '';
  document.body.dataset.remoteTalking = String(talking);
}

/** What the other party sends (its `media` signal): a "camera off" card instead of a frozen picture, and a
 * line naming what is off. `media` null: nothing known yet (a new call). */
function showRemoteMedia(name, media) {
  const off = media ? [media.audio ? null : 'microphone', media.video ? null : 'camera'].filter(Boolean) : [];
  el.remoteCameraOff.hidden = !media || media.video;
  el.remoteMedia.hidden = off.length === 0;
  el.remoteMedia.textContent = off.length ? `${name}'s ${off.join(' and ')} ${off.length > 1 ? 'are' : 'is'} off` : '';
  document.body.dataset.remoteAudio = media ? String(media.audio) : '';
  document.body.dataset.remoteVideo = media ? String(media.video) : '';
}

function placeCall(userID) {
  tones.unlock();
  if (!app.signedIn) { showError('Sign in first.'); return; }
  if (app.call && !app.call.finished) { showError('You are already in a call. Hang up first.'); return; }
  const row = app.devices.get(userID);
  if (!row) { showError('That device is no longer online.'); refreshDevices(); return; }
  const remote = { userID, title: row.userTitle || 'device', capabilities: row.capabilities || [] };
  const call = new Call({ parse, me: app.me, direction: 'outgoing', remote, ui: callUI, log });
  showCall(call);
  call.startOutgoing();
}

function showCall(call) {
  clearTimeout(app.timers.outcome);
  app.call = call;
  app.lastCall = call;
  el.remoteVideo.srcObject = null;
  el.localVideo.srcObject = null;
  showRemoteMedia('', null);
  showRemoteTalking('', false);
  chat.reset(call.direction !== 'watch');
  cameraButtons.reset(call);
  el.mute.textContent = 'Mute';
  el.mute.setAttribute('aria-pressed', 'false');
  el.camera.textContent = 'Camera off';
  el.camera.setAttribute('aria-pressed', 'false');
  el.playAudio.hidden = true;
  el.invitePanel.hidden = true;
  el.inviteLink.value = '';
  el.callTitle.textContent = call.direction === 'watch' ? `Watching ${call.remote.title}` : call.remote.title;
  el.incomingTitle.textContent = call.remote.title;
  updateCallButtons();
  refreshDevices(); // keep the list current while the call panel is up
}

const STATE_TEXT = {
  calling: 'Calling…', ringing: 'Ringing…', incoming: 'Incoming call', connecting: 'Connecting…',
  'in-call': 'In call', busy: 'Busy', declined: 'Declined', 'no-answer': 'No answer', ended: 'Call ended',
  error: 'Call failed',
};

function onCallState(call, state, message) {
  if (call !== app.call) {
    if (app.busyCalls.has(call) && TERMINAL_STATES.has(state)) {
      app.busyCalls.delete(call);
      setStatus(`Missed call from ${call.remote.title} while you were in a call.`);
    }
    return;
  }
  setCallState(state);
  const terminal = TERMINAL_STATES.has(state);
  const incoming = state === 'incoming';
  el.incomingPanel.hidden = !incoming;
  el.callPanel.hidden = incoming;
  el.callStatus.textContent = message || STATE_TEXT[state] || state;
  el.callPanel.dataset.state = state;
  setStatus(message || STATE_TEXT[state] || state);
  const watching = call.direction === 'watch';
  document.title = incoming ? `📞 ${call.remote.title} is calling — Intercom`
    : state === 'in-call' ? `${watching ? 'Watching' : 'In call with'} ${call.remote.title} — Intercom` : 'Intercom';

  el.hangup.hidden = terminal;
  el.dismiss.hidden = !terminal;
  const media = state === 'connecting' || state === 'in-call';
  el.mute.hidden = !media || !call.hasLocalAudio;
  el.camera.hidden = !media || !call.hasLocalVideo;
  el.door.hidden = !(state === 'in-call' && call.hasDoor);
  el.invite.hidden = !(state === 'in-call' && call.acceptsViewers);
  cameraButtons.update(call, state);
  if (state !== 'in-call') el.invitePanel.hidden = true;
  el.chat.form.hidden = watching || terminal || incoming;
  el.hangup.textContent = watching ? 'Stop watching'
    : state === 'calling' || state === 'ringing' ? 'Cancel' : 'Hang up';

  if (incoming) {
    tones.play('ring');
    if (navigator.vibrate) { try { navigator.vibrate([400, 200, 400]); } catch { /* unsupported */ } }
    el.accept.focus();
  } else if (state === 'ringing') {
    tones.play('ringback');
  } else {
    tones.stop();
  }
  if (state === 'error') showError(message || 'The call failed.', 'call');
  else if (!terminal) clearError('call');

  if (terminal) {
    el.remoteVideo.srcObject = null;
    el.localVideo.srcObject = null;
    el.playAudio.hidden = true;
    app.timers.outcome = setTimeout(() => { if (app.call === call) returnToIdle(); }, OUTCOME_DISPLAY_MS);
    el.dismiss.focus();
  }
  updateCallButtons();
}

function returnToIdle() {
  clearTimeout(app.timers.outcome);
  if (app.call && !app.call.finished) return;
  app.call = null;
  if (app.watching) leaveWatchMode();
  el.callPanel.hidden = true;
  el.incomingPanel.hidden = true;
  setCallState('idle');
  document.title = 'Intercom';
  setStatus(app.signedIn ? `Online as ${app.me.title}. Waiting for calls.` : 'Not signed in.');
  updateCallButtons();
}

// ── viewers: inviting one, and being one ──

async function inviteViewer() {
  const call = app.call;
  if (!call || call.state !== 'in-call') return;
  el.invite.disabled = true;
  try {
    const { url, expiresAt } = await call.inviteLink(location.href);
    if (app.call !== call || call.finished) return;
    el.inviteLink.value = url;
    el.invitePanel.hidden = false;
    const until = Number.isFinite(expiresAt) ? ` Valid until ${new Date(expiresAt).toLocaleTimeString()}` : ' Valid';
    el.inviteHint.textContent = `${until} or until the call ends. The viewer sees ${call.remote.title}'s video; `
      + 'they never see or hear you.';
    el.inviteLink.select();
    log(`viewer invitation made for session ${call.sessionID}`);
  } catch (e) {
    showError(`Could not invite a viewer: ${e.message || e}`, 'invite');
  } finally {
    el.invite.disabled = false;
  }
}

async function copyInvitation() {
  el.inviteLink.select();
  try {
    await navigator.clipboard.writeText(el.inviteLink.value);
    setStatus('The viewing link is copied.');
  } catch {
    setStatus('Copy the selected link (the browser does not allow this page to use the clipboard).');
  }
}

/** Opened from a viewing link: show only that call, view-only, without signing in. */
function startWatching(invitation) {
  clearError('watch-link');
  app.watching = true;
  document.body.dataset.watching = 'true';
  el.signinPanel.hidden = true;
  el.devicesPanel.hidden = true;
  const me = { userID: null, title: storeGet(STORE.name) || 'Viewer' };
  const call = new Call({ parse, me, direction: 'watch',
                          remote: { userID: invitation.partnerID, title: invitation.title, capabilities: [] },
                          ui: callUI, log });
  showCall(call);
  call.startWatching(invitation.signalURL, invitation.token);
}

function leaveWatchMode() {
  app.watching = false;
  delete document.body.dataset.watching;
  history.replaceState(null, '', location.pathname + location.search);
  el.signinPanel.hidden = false;
  el.devicesPanel.hidden = !app.signedIn;
}

/** The viewing link in the address bar, if any; a damaged one is reported and ignored. */
function invitationInAddress() {
  try {
    return decodeWatchLink(location.hash);
  } catch (e) {
    showError(e.message, 'watch-link');
    return null;
  }
}

// ── wiring ──

function wire() {
  el.form.addEventListener('submit', onSubmit);
  el.signout.addEventListener('click', signOut);
  el.errorDismiss.addEventListener('click', () => clearError());
  el.locate.addEventListener('click', () => {
    el.signinError.textContent = '';
    if (!navigator.geolocation) {
      el.signinError.textContent = 'This browser cannot share its location here (it needs HTTPS). Type it instead.';
      return;
    }
    el.locate.disabled = true;
    setStatus('Finding your location…');
    navigator.geolocation.getCurrentPosition((pos) => {
      el.locate.disabled = false;
      el.lat.value = pos.coords.latitude.toFixed(6);
      el.lon.value = pos.coords.longitude.toFixed(6);
      setStatus(`Location found (±${Math.round(pos.coords.accuracy)} m).`);
    }, (err) => {
      el.locate.disabled = false;
      const why = err.code === 1 ? 'permission was denied' : err.code === 2 ? 'the position is unavailable'
        : err.code === 3 ? 'it took too long' : err.message;
      el.signinError.textContent = `Could not get your location: ${why}. Type latitude and longitude instead.`;
      setStatus('');
    }, { enableHighAccuracy: false, timeout: 15000, maximumAge: 300000 });
  });
  el.radius.addEventListener('change', () => { storeSet(STORE.radius, el.radius.value); refreshDevices(); });
  el.refresh.addEventListener('click', () => refreshDevices());
  el.accept.addEventListener('click', () => { tones.stop(); app.call?.accept(); });
  el.decline.addEventListener('click', () => { tones.stop(); app.call?.decline(); });
  el.hangup.addEventListener('click', () => app.call?.hangup());
  el.dismiss.addEventListener('click', returnToIdle);
  el.invite.addEventListener('click', inviteViewer);
  el.inviteCopy.addEventListener('click', copyInvitation);
  window.addEventListener('hashchange', () => {
    const invitation = invitationInAddress();
    if (!invitation) return;
    if (app.call && !app.call.finished) { showError('Finish the current call before watching another one.'); return; }
    startWatching(invitation);
  });
  el.mute.addEventListener('click', () => {
    const call = app.call;
    if (!call) return;
    call.setMuted(!call.muted);
    el.mute.textContent = call.muted ? 'Unmute' : 'Mute';
    el.mute.setAttribute('aria-pressed', String(call.muted));
  });
  el.camera.addEventListener('click', () => {
    const call = app.call;
    if (!call) return;
    call.setCameraOff(!call.cameraOff);
    el.camera.textContent = call.cameraOff ? 'Camera on' : 'Camera off';
    el.camera.setAttribute('aria-pressed', String(call.cameraOff));
  });
  el.door.addEventListener('click', () => {
    if (app.call?.openDoor()) setStatus(`Asked ${app.call.remote.title} to open the door.`);
    else showError('Could not send the door request: the call is not connected.');
  });
  el.playAudio.addEventListener('click', () => {
    el.remoteVideo.play().then(() => { el.playAudio.hidden = true; })
      .catch((e) => showError(`The browser would not play the call: ${e.message}`));
  });

  window.addEventListener('pagehide', (event) => {
    if (app.call && !app.call.finished) app.call.hangup();
    if (app.signedIn) goOffline({ keepalive: true }); // a bfcache restore re-registers in pageshow
  });
  document.addEventListener('visibilitychange', () => {
    // Phones throttle background tabs: catch up when the page is shown again.
    if (!document.hidden && app.signedIn) { refreshDevices(); pollIncoming(); }
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && app.signedIn) heartbeat(); // back from the back/forward cache
  });
}

const zeroStats = {
  callState: 'idle', connectionState: 'none', iceConnectionState: 'none', framesDecoded: 0, framesReceived: 0,
  videoPacketsReceived: 0, audioPacketsReceived: 0, framesEncoded: 0, videoPacketsSent: 0, audioPacketsSent: 0,
  bytesReceived: 0, bytesSent: 0, roundTripTime: null,
};

window.intercom = {
  stats: async () => (app.lastCall ? app.lastCall.stats() : { ...zeroStats }),
  state: () => document.body.dataset.callState,
  userId: () => app.me?.userID ?? null,
  log: () => logLines.slice(),
  requestCamera: (name) => app.call?.requestCamera(name) ?? false,
};

function start() {
  // Never fail silently: anything unexpected reaches the error banner.
  window.addEventListener('error', (event) => showError(`Unexpected error: ${event.message}`, 'unexpected'));
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason;
    showError(`Unexpected error: ${(reason && reason.message) || reason}`, 'unexpected');
  });
  wire();
  restoreForm();
  setCallState('idle');
  setLive('offline');
  if (!window.RTCPeerConnection || !window.WebSocket) {
    showError('This browser does not support video calls (WebRTC). Please use a current Chrome, Firefox or Safari.');
  }
  if (!window.isSecureContext) {
    setStatus('Note: this page is not on HTTPS, so the camera, microphone and location may be unavailable.');
  } else {
    setStatus('Enter your name and location, then sign in.');
  }
  const invitation = invitationInAddress();
  if (invitation) {
    startWatching(invitation);
    return;
  }
  if (storeGet(STORE.signedIn) === '1' && el.name.value && el.lat.value && el.lon.value) {
    el.form.requestSubmit ? el.form.requestSubmit() : el.signin.click();
  }
}

start();
