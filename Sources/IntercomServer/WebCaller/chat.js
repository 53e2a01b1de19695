// The call's chat panel (issue #22, docs/backend.md "text"): a list of messages and an input. Own messages
// show "sent", then "delivered" when the other side's text-ack arrives; incoming ones carry the sender's
// name. Every text goes in with textContent, never innerHTML.

/** The limits of SignalText (ParseWire): 1…500 Unicode scalars, no control character but newline. */
export const TEXT_MAX = 500;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/gu;

/** What the page sends for `raw`: control characters other than newline removed, trimmed; null if empty
 * or longer than TEXT_MAX scalars. */
export function cleanText(raw) {
  const text = String(raw).replace(CONTROL, '').trim();
  if (!text || [...text].length > TEXT_MAX) return null;
  return text;
}

export class ChatPanel {
  /** `el`: { panel, list, form, input, send, hint }; `onSend(text)` returns the message id or null. */
  constructor(el, onSend) {
    this.el = el;
    this.onSend = onSend;
    this.own = new Map();
    el.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    el.input.addEventListener('input', () => {
      const n = [...el.input.value].length;
      el.hint.textContent = n > TEXT_MAX ? `${n}/${TEXT_MAX}: too long` : '';
    });
  }

  /** A new call: empty list; `canSend` false for a viewer (it receives only). */
  reset(canSend) {
    this.own.clear();
    this.el.list.replaceChildren();
    this.el.panel.hidden = false;
    this.el.form.hidden = !canSend;
    this.el.input.value = '';
    this.el.hint.textContent = '';
  }

  hide() { this.el.panel.hidden = true; }

  submit() {
    const text = cleanText(this.el.input.value);
    if (!text) {
      this.el.hint.textContent = this.el.input.value.trim() ? `At most ${TEXT_MAX} characters.` : '';
      return;
    }
    const id = this.onSend(text);
    if (!id) { this.el.hint.textContent = 'Not connected: the message was not sent.'; return; }
    this.el.input.value = '';
    this.el.hint.textContent = '';
    const state = this.append('You', text, 'own');
    state.textContent = 'sent';
    state.dataset.state = 'sent';
    this.own.set(id, state);
  }

  /** A text from the other side. */
  received(name, text) { this.append(name, text, 'theirs'); }

  /** The other side acknowledged our message `id`. */
  delivered(id) {
    const state = this.own.get(id);
    if (!state) return;
    state.textContent = 'delivered';
    state.dataset.state = 'delivered';
  }

  /** A line of our own that the server refused (rate limit, too long): shown on the panel. */
  refused(message) { this.el.hint.textContent = `Message not sent: ${message}`; }

  append(name, text, kind) {
    const li = document.createElement('li');
    li.className = `chat-message ${kind}`;
    const who = document.createElement('span');
    who.className = 'chat-from';
    who.textContent = name;
    const body = document.createElement('span');
    body.className = 'chat-text';
    body.textContent = text;
    const state = document.createElement('span');
    state.className = 'chat-state';
    li.append(who, body, state);
    this.el.list.append(li);
    li.scrollIntoView({ block: 'nearest' });
    return state;
  }
}
