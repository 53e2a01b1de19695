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

// Rejoining after the socket dropped mid-call (on a fleet, the instance that owned the room died; or a network
// blip): quick first attempts, since the room moves as soon as the fleet sees its owner dead (seconds), then
// every 2 s; after REJOIN_GIVE_UP_MS the server is taken as gone.
const REJOIN_DELAYS_MS = [250, 500, 1000, 2000];
const REJOIN_GIVE_UP_MS = 30000;
const JOIN_TIMEOUT_MS = 10000;
// Refusals another attempt would only repeat: the token, the call or the room says no for good.
const FINAL_REFUSALS = new Set(['expired', 'forbidden', 'bad-token', 'full']);

function describeError(code, message) {
  return `${ERROR_TEXT[code] || code}${message ? ` (${message})` : ''}`;
}

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
   * onError(code, message), onClose(event, why) — the last two only after a successful join.
   * Rejoining: when the socket drops after a join and handlers.shouldRejoin?.() says yes, the channel joins again
   * with the same token and name — onRejoining() once, then onRejoined(joined) with the new `joined` frame (the
   * server gives every socket a new peer id), or onClose(event, why) when it gives up (`why` says why).
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
    this.state = 'new'; // 'joining' → 'joined' ⇄ 'rejoining'; 'closed' for good
    this.joins = 0; // successful joins: 1 after open(), one more per rejoin
    this.rejoinTimer = null;
    this.rejoinDeadline = 0;
  }

  /** Opens the socket and joins; resolves with the `joined` frame. */
  async open(timeoutMs = JOIN_TIMEOUT_MS) {
    this.state = 'joining';
    try {
      return await this.connect(timeoutMs);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /**
   * One socket: opens it and joins; resolves with the `joined` frame, rejects with an Error (its `code` the
   * server's refusal, if any) and closes that socket. Once joined, the socket's frames are dispatched and its
   * close is `dropped`.
   */
  connect(timeoutMs) {
    return new Promise((resolve, reject) => {
      let settled = false;
      let joined = false; // this socket got its `joined`: its frames and its close are the channel's
      let socket = null;
      const fail = (message, code = null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        try { socket?.close(); } catch { /* already closed */ }
        reject(Object.assign(new Error(message), { code }));
      };
      const timer = setTimeout(() => fail('The call server did not answer in time (signaling join timed out).'),
        timeoutMs);
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
          if (this.closed) { fail('The call connection was closed.'); return; }
          if (frame.op === 'joined') {
            settled = true;
            joined = true;
            clearTimeout(timer);
            this.joined = frame;
            this.joins += 1;
            this.state = 'joined';
            clearInterval(this.pingTimer);
            this.pingTimer = setInterval(() => this.sendFrame({ op: 'ping' }), 15000);
            resolve(frame);
            return;
          }
          if (frame.op === 'error') {
            fail(`Could not join the call: ${describeError(frame.code, frame.message)}.`, frame.code);
            return;
          }
        }
        if (joined && socket === this.socket) this.dispatch(frame);
      };
      socket.onerror = () => { /* onclose follows */ };
      socket.onclose = (event) => {
        if (!settled) {
          fail(`The call connection closed before joining (code ${event.code}${event.reason ? `: ${event.reason}` : ''}).`);
          return;
        }
        if (joined && socket === this.socket) this.dropped(event);
      };
    });
  }

  /** The joined socket closed without our close(): rejoin if the owner wants it, else the channel is over. */
  dropped(event) {
    clearInterval(this.pingTimer);
    if (this.closed) return;
    if (!this.handlers.shouldRejoin?.()) { this.end(event, null); return; }
    this.state = 'rejoining';
    this.rejoinDeadline = Date.now() + REJOIN_GIVE_UP_MS;
    this.log(`signal: the connection closed (code ${event.code}); rejoining`);
    this.handlers.onRejoining?.();
    this.rejoin(0, event);
  }

  /** Attempt `attempt` (0-based) after its delay; each failed one schedules the next until the deadline. */
  rejoin(attempt, lastEvent) {
    const delay = REJOIN_DELAYS_MS[Math.min(attempt, REJOIN_DELAYS_MS.length - 1)];
    if (Date.now() + delay >= this.rejoinDeadline) {
      this.end(lastEvent, `no answer for ${REJOIN_GIVE_UP_MS / 1000} s`);
      return;
    }
    this.rejoinTimer = setTimeout(async () => {
      this.rejoinTimer = null;
      if (this.closed) return;
      let frame;
      try {
        frame = await this.connect(Math.max(1000, Math.min(JOIN_TIMEOUT_MS, this.rejoinDeadline - Date.now())));
      } catch (e) {
        if (this.closed) return;
        if (FINAL_REFUSALS.has(e.code)) { this.end(lastEvent, describeError(e.code, null)); return; }
        this.log(`signal: rejoin attempt ${attempt + 1} failed: ${e.message}`);
        this.rejoin(attempt + 1, lastEvent);
        return;
      }
      if (this.closed) return;
      this.log(`signal: rejoined after ${attempt + 1} attempt(s)`);
      this.handlers.onRejoined?.(frame);
    }, delay);
  }

  /** The channel is over without our close(): closed, refused for good, or out of rejoin attempts. */
  end(event, why) {
    this.closed = true;
    this.state = 'closed';
    this.handlers.onClose?.(event, why);
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
        this.handlers.onError?.(frame.code, describeError(frame.code, frame.message));
        break;
      default:
        this.log(`signal: unknown op ${frame.op}`);
    }
  }

  /** Only on a joined socket: before its `joined` the server takes any frame but a join for a protocol error. */
  sendFrame(frame) {
    if (this.state === 'joined' && this.socket && this.socket.readyState === WebSocket.OPEN) {
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
    this.state = 'closed';
    clearInterval(this.pingTimer);
    clearTimeout(this.rejoinTimer);
    this.rejoinTimer = null;
    const socket = this.socket;
    if (!socket) return;
    const shut = () => {
      try { socket.close(1000, 'bye'); } catch { /* already closed */ }
    };
    if (afterMs > 0) setTimeout(shut, afterMs); else shut();
  }
}
