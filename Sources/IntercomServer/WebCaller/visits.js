// The "Visits" view (issue #19): the CallLog rows this user may read, newest first, a page at a time,
// each with its snapshot, time and outcome, and a badge counting missed calls since the user last looked.
// The server's ACL does the choosing: a device names its owners as readers of its rows, so an owner
// sees their devices' visits and anyone else sees none.

import { parseDate } from './parse.js';

export const PAGE_SIZE = 5;
const OUTCOMES = { answered: 'Answered', missed: 'Missed', declined: 'Declined', busy: 'Busy', failed: 'Failed' };
const KEYS = ['callerTitle', 'callerID', 'outcome', 'direction', 'startedAt', 'endedAt', 'snapshot', 'userID',
  'callerSpokeSeconds'];

export class VisitsView {
  /** `elements`: panel, details, badge, list, empty, older, newer, pageLabel, refresh (index.html). */
  constructor({ parse, elements, storeGet, storeSet, log }) {
    Object.assign(this, { parse, el: elements, storeGet, storeSet, log });
    this.userId = null;
    this.page = 0;
    elements.details.addEventListener('toggle', () => { if (elements.details.open) this.show(0); });
    elements.older.addEventListener('click', () => this.show(this.page + 1));
    elements.newer.addEventListener('click', () => this.show(Math.max(0, this.page - 1)));
    elements.refresh.addEventListener('click', () => { this.show(this.page); });
  }

  /** Signed in as `userId`: show the panel and count what was missed meanwhile. */
  start(userId) {
    this.userId = userId;
    this.el.panel.hidden = false;
    this.refreshBadge();
    if (this.el.details.open) this.show(0);
  }

  stop() {
    this.userId = null;
    this.el.panel.hidden = true;
    this.el.list.replaceChildren();
    this.setBadge(0);
  }

  /** When the user last looked: the newest row's server `createdAt` (not this browser's clock). */
  get seenKey() { return `intercom.visitsSeen.${this.userId}`; }

  async refreshBadge() {
    if (!this.userId || this.el.details.open) return;
    const seen = this.storeGet(this.seenKey);
    const where = { outcome: 'missed' };
    if (seen) where.createdAt = { $gt: { __type: 'Date', iso: seen } };
    try {
      this.setBadge(await this.parse.count('CallLog', where));
    } catch (e) {
      this.log(`visits badge: ${e.message}`);
    }
  }

  setBadge(count) {
    this.el.badge.textContent = String(count);
    this.el.badge.hidden = count === 0;
    this.el.badge.setAttribute('aria-label', `${count} missed since you last looked`);
  }

  /** Page `page` (0 = newest). One row more than a page tells whether an older page exists. */
  async show(page) {
    if (!this.userId) return;
    let rows;
    try {
      rows = await this.parse.find('CallLog', {}, {
        order: '-createdAt', limit: PAGE_SIZE + 1, skip: page * PAGE_SIZE, keys: KEYS,
      });
    } catch (e) {
      this.el.empty.hidden = false;
      this.el.empty.textContent = `Could not load the visits: ${e.message}`;
      return;
    }
    this.page = page;
    const shown = rows.slice(0, PAGE_SIZE);
    this.el.list.replaceChildren(...shown.map((row) => this.item(row)));
    this.el.empty.hidden = shown.length > 0;
    this.el.empty.textContent = page === 0 ? 'No visits yet.' : 'No older visits.';
    this.el.older.disabled = rows.length <= PAGE_SIZE;
    this.el.newer.disabled = page === 0;
    this.el.pageLabel.textContent = `Page ${page + 1}`;
    if (page === 0 && shown.length) this.storeSet(this.seenKey, shown[0].createdAt);
    if (page === 0) this.setBadge(0);
  }

  item(row) {
    const li = document.createElement('li');
    li.className = 'visit';
    li.dataset.objectId = row.objectId;
    li.dataset.outcome = row.outcome || 'unknown';
    const who = row.callerTitle || row.callerID || 'Someone';
    if (row.snapshot && row.snapshot.url) {
      const img = document.createElement('img');
      img.className = 'thumb';
      img.src = row.snapshot.url;
      img.alt = `Snapshot of ${who}`;
      img.loading = 'lazy';
      img.width = 96;
      img.height = 72;
      li.append(img);
    } else {
      const none = document.createElement('div');
      none.className = 'thumb none';
      none.textContent = 'no picture';
      li.append(none);
    }
    const text = document.createElement('div');
    text.className = 'visit-text';
    const name = document.createElement('strong');
    name.textContent = who;
    const outcome = document.createElement('span');
    outcome.className = `outcome ${row.outcome || 'unknown'}`;
    outcome.textContent = OUTCOMES[row.outcome] || row.outcome || 'Unknown';
    const when = document.createElement('time');
    const ms = parseDate(row.startedAt) || parseDate(row.createdAt);
    if (Number.isFinite(ms)) {
      when.dateTime = new Date(ms).toISOString();
      when.textContent = new Date(ms).toLocaleString();
    }
    text.append(name, outcome, when);
    if (Number.isFinite(row.callerSpokeSeconds)) {
      const spoke = document.createElement('span');
      spoke.className = 'spoke';
      spoke.textContent = row.callerSpokeSeconds < 0.5 ? 'did not speak' : `spoke ${Math.round(row.callerSpokeSeconds)} s`;
      text.append(spoke);
    }
    li.append(text);
    return li;
  }
}
