/**
 * Live updates (docs/live-updates.md): one websocket to /api/v1/events per page, identified by
 * the session cookie, reconnecting with the last event id so nothing is missed. Pages subscribe
 * to events; while the socket is not open they fall back to polling (liveOpen() says which).
 * Comments and sales on the user's tracks show as notifications.
 */
import { h } from '../../shared/dom';
import { session } from './api';
import { money as moneyText } from './money';

export interface LiveEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
/** Listeners of the page on screen: dropped when the route changes (leavePage). */
const pageListeners = new Set<Listener>();
let socket: WebSocket | undefined;
let open = false;
let lastId: string | undefined;
let retryMs = 1000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** Closes a socket that has been silent for two heartbeats (a dead connection the browser has not noticed). */
let watchdog: ReturnType<typeof setTimeout> | undefined;
let heartbeatMs = 25_000;

/** True while events arrive live; pages poll otherwise. */
export function liveOpen(): boolean {
  return open;
}

export function onLive(listener: Listener, scope: 'page' | 'app' = 'page'): () => void {
  const set = scope === 'page' ? pageListeners : listeners;
  set.add(listener);
  return () => set.delete(listener);
}

export function leavePage(): void {
  pageListeners.clear();
}

/** Opens the socket for a logged-in user (again after a drop, with backoff); closes it at logout. */
export function startLive(): void {
  if (!session()) return stopLive();
  if (socket || retryTimer) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/v1/events`);
  } catch {
    // No websockets here (blocked, unsupported): the pages poll; try again later.
    return retryLater();
  }
  socket = ws;
  ws.addEventListener('open', () => {
    ws.send(JSON.stringify({ type: 'hello', v: 1, ...(lastId ? { last_id: lastId } : {}) }));
  });
  ws.addEventListener('message', (e) => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => ws.close(4000, 'no heartbeat'), 2 * heartbeatMs);
    let m: { type?: unknown; id?: unknown; data?: unknown; heartbeat_seconds?: unknown };
    try {
      m = JSON.parse(String(e.data)) as typeof m;
    } catch {
      return;
    }
    if (m.type === 'hello') {
      if (typeof m.heartbeat_seconds === 'number') heartbeatMs = m.heartbeat_seconds * 1000;
      open = true;
      retryMs = 1000;
      document.documentElement.dataset.live = 'open';
      return;
    }
    if (m.type === 'resync') lastId = undefined;
    if (typeof m.id !== 'string' || typeof m.type !== 'string') return;
    lastId = m.id;
    const event: LiveEvent = { id: m.id, type: m.type, data: (m.data ?? {}) as Record<string, unknown> };
    for (const l of [...listeners, ...pageListeners]) l(event);
  });
  ws.addEventListener('close', (e) => {
    clearTimeout(watchdog);
    if (socket !== ws) return;
    socket = undefined;
    // Logged out or the session ended: stay closed until the next login.
    if (e.code === 4001 || !session()) return void markClosed();
    retryLater();
  });
}

function markClosed(): void {
  open = false;
  document.documentElement.dataset.live = 'closed';
}

function retryLater(): void {
  markClosed();
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    startLive();
  }, retryMs);
  retryMs = Math.min(retryMs * 2, 30_000);
}

export function stopLive(): void {
  clearTimeout(retryTimer);
  retryTimer = undefined;
  lastId = undefined;
  const ws = socket;
  socket = undefined;
  ws?.close(1000);
  markClosed();
}

/**
 * A version's steps as they happen: one line per step (started, percent, done or skipped), and
 * the end (ready or failed). `onEnd` runs once the version is ready or failed.
 */
export function stepList(
  match: (data: Record<string, unknown>) => boolean,
  onEnd: (event: LiveEvent) => void,
): { element: HTMLElement; stop: () => void; feed: Listener } {
  const items = new Map<string, HTMLElement>();
  const list = h('ul', { class: 'live-steps', 'data-testid': 'live-steps', 'aria-live': 'polite' });
  const line = (key: string, status: string, text: string): void => {
    let li = items.get(key);
    if (!li) {
      li = h('li', { 'data-step': key });
      items.set(key, li);
      list.append(li);
    }
    li.dataset.status = status;
    li.textContent = text;
  };
  const feed: Listener = (e) => {
    if (!match(e.data)) return;
    const d = e.data;
    if (e.type === 'version.queued') line('queued', 'done', 'Queued');
    else if (e.type === 'version.step') {
      const step = String(d.step);
      // The step's words come with the event (its media-step descriptor on the server).
      const label = str(d.label) || step;
      const status = String(d.status);
      const text =
        status === 'progress'
          ? `${label}: ${Number(d.percent)}%`
          : status === 'skipped'
            ? `${label}: skipped (${str(d.reason)})`
            : status === 'failed'
              ? `${label}: failed (${str(d.reason)})${d.required === false ? '; the version plays without it' : ''}`
              : `${label}: ${status}`;
      line(step, status, text);
    } else if (e.type === 'version.ready') {
      line('ready', 'done', 'Ready');
      onEnd(e);
    } else if (e.type === 'version.failed') {
      line('failed', 'failed', `Failed: ${str(d.reason)}`);
      onEnd(e);
    }
  };
  return { element: list, stop: onLive(feed), feed };
}

let tray: HTMLElement | undefined;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A notification's amount in the currency's own terms (JPY has no cents). */
function money(amount: unknown, currency: unknown): string {
  if (typeof amount !== 'number' || typeof currency !== 'string') return 'an amount';
  try {
    return moneyText(amount, currency);
  } catch {
    return `an amount in ${currency.toUpperCase()}`;
  }
}

function person(p: unknown): string {
  const who = p as { display_name?: string; handle?: string } | null;
  return who?.display_name || who?.handle || 'someone';
}

/** Notifications for comments, sales and tips: a few at a time, each closable. */
export function startNotifications(): void {
  if (tray) return;
  tray = document.body.appendChild(
    h('section', { class: 'live-tray', 'aria-live': 'polite', 'data-testid': 'notifications' }),
  );
  onLive((e) => {
    const d = e.data;
    const trackLink = (title: unknown) =>
      typeof d.track_id === 'string'
        ? h('a', { href: `/tracks/${d.track_id}` }, str(title) || 'your track')
        : null;
    let text: (Node | string | null)[];
    if (e.type === 'comment.created')
      text = [`${person(d.author)} commented on `, trackLink(d.track_title), `: ${str(d.excerpt)}`];
    else if (e.type === 'purchase.completed')
      text = [`${person(d.buyer)} bought `, trackLink(d.track_title), ` for ${money(d.amount, d.currency)}`];
    else if (e.type === 'tip.received')
      text = [
        `${person(d.from)} sent you a tip of ${money(d.amount, d.currency)}`,
        d.message ? `: ${str(d.message)}` : '',
      ];
    else return;
    // The words in one box: each piece a flex item of its own would be a column of its own.
    const note = h(
      'div',
      { class: 'notice live-note', 'data-type': e.type, role: 'status' },
      h('span', {}, ...text),
    );
    note.append(
      h(
        'button',
        { type: 'button', class: 'link', onclick: () => note.remove(), 'aria-label': 'Dismiss' },
        '×',
      ),
    );
    tray!.prepend(note);
    while (tray!.children.length > 4) tray!.lastElementChild?.remove();
  }, 'app');
}

/** The upload page's panel: every version of the user's processing now, each with its steps. */
export function processingPanel(): HTMLElement {
  const panel = h('section', { 'data-testid': 'live-uploads', hidden: true }, h('h2', {}, 'Processing now'));
  const seen = new Set<string>();
  onLive((e) => {
    const versionId = e.data.version_id;
    if (typeof versionId !== 'string' || seen.has(versionId) || !e.type.startsWith('version.')) return;
    seen.add(versionId);
    const steps = stepList(
      (d) => d.version_id === versionId,
      () => undefined,
    );
    const trackId = String(e.data.track_id);
    panel.append(
      h('div', { 'data-version': versionId }, h('a', { href: `/tracks/${trackId}` }, 'Track'), steps.element),
    );
    panel.hidden = false;
    // The list just made missed this first event.
    steps.feed(e);
  });
  return panel;
}
