// Parse REST (parse-wire.md §1–§5) and LiveQuery (§8) for the web caller. Same origin only.

/** An error from the server or the network, with Parse's code and a message fit for the UI. */
export class ParseError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ParseError';
    this.status = status; // HTTP status, 0 when the server could not be reached
    this.code = code; // Parse error code (100 for connection failures)
  }
}

/** A random lowercase UUID; works outside secure contexts too (plain http on a LAN address). */
export function randomUUID() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') {
    try { return crypto.randomUUID(); } catch { /* not a secure context */ }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class ParseClient {
  constructor({ appId = 'intercom', base = '/parse', installationId } = {}) {
    this.appId = appId;
    this.base = base;
    this.installationId = installationId;
    this.sessionToken = null;
    this.userId = null;
    this.anonymousId = null;
    this.onSession = null; // called after a (re-)login with the new token
  }

  headers() {
    const h = { 'X-Parse-Application-Id': this.appId, 'Content-Type': 'application/json' };
    if (this.sessionToken) h['X-Parse-Session-Token'] = this.sessionToken;
    if (this.installationId) h['X-Parse-Installation-Id'] = this.installationId;
    return h;
  }

  /** One REST call. A 209 (invalid session) triggers exactly one anonymous re-login and a retry. */
  async request(method, path, body, { keepalive = false, relogin = true } = {}) {
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers: this.headers(),
        body: body === undefined ? undefined : JSON.stringify(body),
        keepalive,
        cache: 'no-store',
      });
    } catch (e) {
      throw new ParseError(0, 100, `Cannot reach the server (${e.message || e}).`);
    }
    let json = null;
    const text = await response.text().catch(() => '');
    if (text) {
      try { json = JSON.parse(text); } catch { json = null; }
    }
    if (response.ok) return json ?? {};
    const code = json && typeof json.code === 'number' ? json.code : 0;
    const message = (json && (json.error || json.message)) || `HTTP ${response.status}`;
    if (code === 209 && relogin && this.anonymousId) {
      await this.logInAnonymously(this.anonymousId);
      return this.request(method, path, body, { keepalive, relogin: false });
    }
    if (response.status === 429) {
      throw new ParseError(429, code || 100, 'The server is busy (too many requests). Please wait a moment.');
    }
    throw new ParseError(response.status, code, message);
  }

  /** `POST /users {authData:{anonymous:{id}}}`: 201 for a new user, 200 for a known one. */
  async logInAnonymously(anonymousId) {
    this.anonymousId = anonymousId;
    this.sessionToken = null;
    const user = await this.request('POST', '/users', { authData: { anonymous: { id: anonymousId } } },
      { relogin: false });
    if (!user.objectId || !user.sessionToken) {
      throw new ParseError(500, 1, 'The server answered the sign-in without a user id or session.');
    }
    this.userId = user.objectId;
    this.sessionToken = user.sessionToken;
    if (this.onSession) this.onSession(this.sessionToken);
    return user;
  }

  async find(className, where, { limit, skip, order, keys } = {}) {
    const params = new URLSearchParams();
    if (where) params.set('where', JSON.stringify(where));
    if (limit !== undefined) params.set('limit', String(limit));
    if (skip) params.set('skip', String(skip));
    if (order) params.set('order', order);
    if (keys) params.set('keys', keys.join(','));
    const json = await this.request('GET', `/classes/${className}?${params}`);
    return Array.isArray(json.results) ? json.results : [];
  }

  /** How many rows match (`count=1&limit=0`). */
  async count(className, where) {
    const params = new URLSearchParams({ where: JSON.stringify(where || {}), count: '1', limit: '0' });
    const json = await this.request('GET', `/classes/${className}?${params}`);
    return Number(json.count) || 0;
  }

  create(className, fields) { return this.request('POST', `/classes/${className}`, fields); }

  update(className, objectId, fields) {
    return this.request('PUT', `/classes/${className}/${encodeURIComponent(objectId)}`, fields);
  }

  destroy(className, objectId, { keepalive = false } = {}) {
    return this.request('DELETE', `/classes/${className}/${encodeURIComponent(objectId)}`, undefined, { keepalive });
  }

  /** `POST /functions/<name>` (a Cloud function); resolves with its `result`. */
  async callFunction(name, parameters) {
    const json = await this.request('POST', `/functions/${encodeURIComponent(name)}`, parameters);
    return json.result;
  }
}

export function geoPoint(latitude, longitude) {
  return { __type: 'GeoPoint', latitude, longitude };
}

/** Parse Date (`{__type:"Date",iso}`) or ISO string → epoch ms, or NaN. */
export function parseDate(value) {
  if (!value) return NaN;
  if (typeof value === 'string') return Date.parse(value);
  if (typeof value === 'object' && value.iso) return Date.parse(value.iso);
  return NaN;
}

/**
 * Parse LiveQuery client: connect → connected, subscribe (requestId) → subscribed, then
 * create/enter/update/leave/delete events. Reconnects with the JS SDK's back-off
 * (random · min(30, 2^k − 1) s) and re-subscribes every query after each reconnect.
 */
export class LiveQueryClient {
  constructor({ url, appId, installationId, sessionToken, onStatus, log }) {
    this.url = url;
    this.appId = appId;
    this.installationId = installationId;
    this.sessionToken = sessionToken;
    this.onStatus = onStatus || (() => {});
    this.log = log || (() => {});
    this.subscriptions = new Map(); // requestId → {query, handler, subscribed}
    this.nextRequestId = 1;
    this.socket = null;
    this.up = false;
    this.attempt = 0;
    this.stopped = true;
    this.reconnectTimer = null;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    if (this.socket) {
      this.socket.onclose = null;
      try { this.socket.close(); } catch { /* already closed */ }
      this.socket = null;
    }
    this.setUp(false);
  }

  setSessionToken(token) {
    this.sessionToken = token;
    // Re-subscribe with the new token (op "update" keeps the requestId).
    if (this.up) for (const [requestId, sub] of this.subscriptions) this.sendSubscribe(requestId, sub, 'update');
  }

  subscribe(query, handler) {
    const requestId = this.nextRequestId++;
    const sub = { query, handler, subscribed: false };
    this.subscriptions.set(requestId, sub);
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.connected) this.sendSubscribe(requestId, sub);
    return requestId;
  }

  setUp(up) {
    if (this.up === up) return;
    this.up = up;
    this.onStatus(up);
  }

  open() {
    if (this.stopped) return;
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (e) {
      this.log(`LiveQuery: cannot open ${this.url}: ${e.message}`);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.connected = false;
    socket.onopen = () => {
      const connect = { op: 'connect', applicationId: this.appId };
      if (this.sessionToken) connect.sessionToken = this.sessionToken;
      if (this.installationId) connect.installationId = this.installationId;
      socket.send(JSON.stringify(connect));
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => { /* onclose follows */ };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.connected = false;
      for (const sub of this.subscriptions.values()) sub.subscribed = false;
      this.setUp(false);
      this.log(`LiveQuery closed (${event.code}${event.reason ? ' ' + event.reason : ''})`);
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.attempt = Math.min(this.attempt + 1, 6);
    const delay = Math.max(0.5, Math.random() * Math.min(30, 2 ** this.attempt - 1)) * 1000;
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  sendSubscribe(requestId, sub, op = 'subscribe') {
    const frame = { op, requestId, query: sub.query };
    if (this.sessionToken) frame.sessionToken = this.sessionToken;
    this.socket.send(JSON.stringify(frame));
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { this.log('LiveQuery: non-JSON frame ignored'); return; }
    switch (message.op) {
      case 'connected':
        this.connected = true;
        for (const [requestId, sub] of this.subscriptions) this.sendSubscribe(requestId, sub);
        if (this.subscriptions.size === 0) { this.attempt = 0; this.setUp(true); }
        break;
      case 'subscribed': {
        const sub = this.subscriptions.get(message.requestId);
        if (sub) sub.subscribed = true;
        this.attempt = 0;
        this.setUp(true);
        break;
      }
      case 'create': case 'enter': case 'update': case 'leave': case 'delete': {
        const sub = this.subscriptions.get(message.requestId);
        if (sub && message.object) sub.handler(message.op, message.object);
        break;
      }
      case 'error':
        this.log(`LiveQuery error ${message.code}: ${message.error}`);
        if (message.reconnect && this.socket) this.socket.close();
        break;
      default:
        break;
    }
  }
}
