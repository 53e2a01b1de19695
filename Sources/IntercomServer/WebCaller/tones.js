// Ringtone and ringback from Web Audio (no audio files). Browsers only allow audio after a user gesture,
// so `unlock()` is called from click handlers; without it the tones are silently skipped (the screen
// still shows the call).

const PATTERNS = {
  // [frequencies, on ms, off ms, gain]
  ring: [[440, 480], 1000, 1000, 0.12],
  ringback: [[440, 480], 1000, 3000, 0.05],
};

export class Tones {
  constructor() {
    this.ctx = null;
    this.current = null;
    this.timer = null;
    this.nodes = [];
  }

  unlock() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      if (!this.ctx) this.ctx = new Ctx();
      if (this.ctx.state === 'suspended') this.ctx.resume().catch(() => {});
    } catch {
      this.ctx = null;
    }
  }

  play(kind) {
    if (this.current === kind) return;
    this.stop();
    const pattern = PATTERNS[kind];
    if (!pattern || !this.ctx || this.ctx.state !== 'running') return;
    this.current = kind;
    const [freqs, on, off, gain] = pattern;
    const burst = () => {
      if (this.current !== kind) return;
      this.nodes = []; // the previous burst's oscillators have stopped on their own
      const t = this.ctx.currentTime;
      const g = this.ctx.createGain();
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(gain, t + 0.02);
      g.gain.setValueAtTime(gain, t + on / 1000 - 0.02);
      g.gain.linearRampToValueAtTime(0, t + on / 1000);
      g.connect(this.ctx.destination);
      for (const f of freqs) {
        const o = this.ctx.createOscillator();
        o.frequency.value = f;
        o.connect(g);
        o.start(t);
        o.stop(t + on / 1000);
        this.nodes.push(o);
      }
      this.timer = setTimeout(burst, on + off);
    };
    burst();
  }

  stop() {
    this.current = null;
    clearTimeout(this.timer);
    for (const o of this.nodes) { try { o.stop(); } catch { /* already stopped */ } }
    this.nodes = [];
  }
}
