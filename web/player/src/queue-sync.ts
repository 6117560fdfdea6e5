/**
 * The queue shared between devices (PUT/GET /api/v1/me/play-queue, Subsonic's saved play queue):
 * a signed-in listener's queue is saved 2 s after a change here, on pause, and at once when the
 * page is hidden; on load, after a login and back on a hidden tab, a queue another device or app
 * saved is offered, "Continue where you left off on …", when this device's is empty or older
 * (queue-handoff.ts).
 * A queue restored here is never saved over the shared one until the listener acts here.
 */
import { h } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, session } from './api';
import { audio, current } from './audio-engine';
import { handoff, type SavedQueue } from './queue-handoff';
import { markSynced, queue, QUEUE_EVENT, takeQueue } from './queue';
import type { QueueItem } from './queue-store';
import { toItem } from './track-rows';

interface SharedQueue extends SavedQueue {
  current_id: string | null;
  position_ms: number;
  changed_by: string | null;
  tracks: unknown[];
}

const PATH = '/me/play-queue';
const DEBOUNCE_MS = 2000;

let timer: ReturnType<typeof setTimeout> | undefined;
/** The listener changed or played the queue on this page: from then on it is saved. */
let acted = false;
const startedAt = queue().changedAt;
/** The last body sent: the same queue at the same place is not sent again. */
let lastSent = '';

/** The queue as PUT sends it, without the ids in `skip` (tracks the server said are gone). */
function body(skip: ReadonlySet<string> = new Set()): string {
  const q = queue();
  const kept = q.items.map((item, i) => [item.id, i] as const).filter(([id]) => !skip.has(id));
  if (kept.length === 0) return JSON.stringify({ track_ids: [] });
  const at = kept.findIndex(([, i]) => i === q.index);
  const seconds = current() ? audio.currentTime : q.position;
  return JSON.stringify({
    track_ids: kept.map(([id]) => id),
    current_index: at >= 0 ? at : null,
    position_ms: at >= 0 ? Math.max(0, Math.round(seconds * 1000)) : 0,
  });
}

/** The ids a 422 names as no track the listener may play (deleted, private now). */
function goneIds(err: unknown): Set<string> {
  const ids =
    err instanceof ProblemError ? (err.problem as { unknown_track_ids?: unknown }).unknown_track_ids : [];
  return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
}

async function save(keepalive = false): Promise<void> {
  clearTimeout(timer);
  if (!acted || !session()) return;
  const sent = body();
  if (sent === lastSent) return;
  lastSent = sent;
  const put = (text: string) => api<SharedQueue>(PATH, { method: 'PUT', body: text, keepalive });
  try {
    // A queued track deleted or made private since: the rest is saved (the player drops it when it comes).
    const answer = await put(sent).catch((err: unknown) => {
      const gone = goneIds(err);
      if (gone.size === 0) throw err;
      return put(body(gone));
    });
    if (answer.changed_at) markSynced(answer.changed_at);
  } catch {
    // Offline, signed out meanwhile: the next change tries again.
    lastSent = '';
  }
}

function later(): void {
  clearTimeout(timer);
  if (acted) timer = setTimeout(() => void save(), DEBOUNCE_MS);
}

function removeOffer(): void {
  document.querySelector('.queue-offer')?.remove();
}

/** "Continue where you left off on <device>": Continue takes the saved queue, Not now keeps this one. */
function offer(saved: SharedQueue, changedAt: string): void {
  removeOffer();
  const rows = saved.tracks.map(toItem);
  const items = rows.filter((i): i is QueueItem => i !== null);
  const at = saved.current_index ?? 0;
  // A row this page cannot show is left out: the current one keeps its place among the rest.
  const start = rows.slice(0, at).filter((i) => i !== null).length;
  const first = items[Math.min(start, items.length - 1)];
  if (!first) return;
  const note = h(
    'section',
    { class: 'notice queue-offer', 'aria-label': 'Continue listening', 'data-testid': 'queue-offer' },
    h(
      'p',
      { 'aria-live': 'polite' },
      `Continue where you left off on ${saved.changed_by || 'another device'}: “${first.title}”` +
        (items.length > 1 ? ` and ${items.length - 1} more.` : '.'),
    ),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          removeOffer();
          markSynced(changedAt);
          acted = true;
          void takeQueue(items, start, saved.position_ms / 1000, true);
        },
      },
      'Continue',
    ),
    ' ',
    h(
      'button',
      {
        type: 'button',
        class: 'link',
        onclick: () => {
          removeOffer();
          markSynced(changedAt);
        },
      },
      'Not now',
    ),
  );
  document.getElementById('app')?.before(note);
}

/** Who the saved queue was last read for (a login on this page reads it again); undefined before the start. */
let readFor: string | null | undefined;

/** Reads the saved queue and offers it when it is another device's and newer. */
async function check(): Promise<void> {
  readFor = session()?.handle ?? null;
  if (!session()) return;
  const saved = await api<SharedQueue>(PATH).catch(() => undefined);
  if (!saved) return;
  const q = queue();
  const verdict = handoff(
    { ids: q.items.map((i) => i.id), index: q.index, changedAt: q.changedAt, syncedAt: q.syncedAt },
    saved,
  );
  const at = saved.changed_at;
  if (at !== null && verdict === 'same') markSynced(at);
  else if (at !== null && verdict === 'offer') offer(saved, at);
  // What the last look found (offer, same, keep): the browser tests wait on it.
  document.documentElement.dataset.sharedQueue = verdict;
}

/** On every page: a login since the last look reads the account's queue; a logout takes its offer away. */
export function sharedQueueOnRoute(): void {
  if (readFor === undefined || (session()?.handle ?? null) === readFor) return;
  if (!session()) {
    readFor = null;
    removeOffer();
  } else void check();
}

/** Starts saving and offering; call once the server said who is signed in. */
export function startQueueSync(): void {
  audio.addEventListener(QUEUE_EVENT, () => {
    if (queue().changedAt !== startedAt) acted = true;
    later();
  });
  audio.addEventListener('play', () => {
    acted = true;
    later();
  });
  audio.addEventListener('pause', later);
  const leave = (): void => void save(true);
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
    // Back on this tab: another device may have played meanwhile.
    else if (audio.paused) void check();
  });
  void check();
}
