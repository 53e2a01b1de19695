// Session signaling client (SYSTEM.md §4): join with a token → joined; peer-joined / peer-left;
// signal {to, data} relayed as {from, data}; ping/pong every 15 s; error frames then close.

const ERROR_TEXT = {
  'bad-token': 'the call token was not accepted',
  expired: 'the call has expired',
  forbidden: 'you are not allowed to join this call',
  full: 'the call is full',
  'bad-frame': 'the server did not understand a message',
  'rate-limited': 'too many messages at once',
  'bad-signal': 'the server refused a message',
};

/** The URL to open: same scheme family as the page (an https page cannot open ws://). */
export function effectiveSignalURL(url) {
  let u;
  try {
    u = new URL(url, location.href);
  } catch {
    throw new Error(`The server gave an invalid signaling URL: ${url}`);
  }
  if (u.protocol === 'http:') u.protocol = 'ws:';
  if (u.protocol === 'https:') u.protocol = 'wss:';
  if (location.protocol === 'https:' && u.protocol === 'ws:') u.protocol = 'wss:';
  return u.toString();
}

export class SignalChannel {
  /**
   * handlers: onPeerJoined(peer), onPeerLeft(peerId, reason), onSignal(from, data),
   * onError(code, message), onClose(event) — the last two only after a successful join.
   */
  constructor({ url, token, name, handlers, log }) {
    this.url = effectiveSignalURL(url);
    this.token = token;
    this.name = name;
    this.handlers = handlers;
    this.log = log || (() => {});
    this.socket = null;
    this.joined = null;
    this.closed = false;
    this.pingTimer = null;
  }

  /** Opens the socket and joins; resolves with the `joined` frame. */
  open(timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (message) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.close();
        reject(new Error(message));
      };
      const timer = setTimeout(() => fail('The call server did not answer in time (signaling join timed out).'),
        timeoutMs);
      let socket;
      try {
        socket = new WebSocket(this.url);
      } catch (e) {
        fail(`Cannot open the call connection ${this.url}: ${e.message}`);
        return;
      }
      this.socket = socket;
      socket.onopen = () => {
        socket.send(JSON.stringify({ op: 'join', token: this.token, name: this.name }));
      };
      socket.onmessage = (event) => {
        let frame;
        try { frame = JSON.parse(event.data); } catch { this.log('signal: non-JSON frame ignored'); return; }
        if (!settled) {
          if (frame.op === 'joined') {
            settled = true;
            clearTimeout(timer);
            this.joined = frame;
            this.pingTimer = setInterval(() => this.sendFrame({ op: 'ping' }), 15000);
            resolve(frame);
            return;
          }
          if (frame.op === 'error') {
            fail(`Could not join the call: ${ERROR_TEXT[frame.code] || frame.code}${frame.message ? ` (${frame.message})` : ''}.`);
            return;
          }
        }
        this.dispatch(frame);
      };
      socket.onerror = () => { /* onclose follows */ };
      socket.onclose = (event) => {
        clearInterval(this.pingTimer);
        if (!settled) {
          fail(`The call connection closed before joining (code ${event.code}${event.reason ? `: ${event.reason}` : ''}).`);
          return;
        }
        if (!this.closed) {
          this.closed = true;
          this.handlers.onClose?.(event);
        }
      };
    });
  }

  dispatch(frame) {
    switch (frame.op) {
      case 'peer-joined':
        this.handlers.onPeerJoined?.(frame);
        break;
      case 'peer-left':
        this.handlers.onPeerLeft?.(frame.peerId, frame.reason);
        break;
      case 'signal':
        if (frame.data && typeof frame.data === 'object') this.handlers.onSignal?.(frame.from, frame.data);
        break;
      case 'ping':
        this.sendFrame({ op: 'pong' });
        break;
      case 'pong':
        break;
      case 'error':
        this.handlers.onError?.(frame.code, `${ERROR_TEXT[frame.code] || frame.code}${frame.message ? ` (${frame.message})` : ''}`);
        break;
      default:
        this.log(`signal: unknown op ${frame.op}`);
    }
  }

  sendFrame(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  send(to, data) {
    return this.sendFrame({ op: 'signal', to, data });
  }

  /** Closes; `afterMs` lets a just-sent frame (a bye) leave first. */
  close(afterMs = 0) {
    this.closed = true;
    clearInterval(this.pingTimer);
    const socket = this.socket;
    if (!socket) return;
    const shut = () => {
      try { socket.close(1000, 'bye'); } catch { /* already closed */ }
    };
    if (afterMs > 0) setTimeout(shut, afterMs); else shut();
  }
}
