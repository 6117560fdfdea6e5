/**
 * The music API as the player calls it. The session itself is an HttpOnly cookie the server sets
 * at login (no script can read it); this page keeps only who is logged in and until when, to draw
 * its menus. Problems become errors.
 */
import { ProblemError, requestJson } from '../../shared/http';

const SESSION_KEY = 'music.session';

/** Who is logged in (not a secret: the token stays in the HttpOnly cookie). */
export interface Session {
  handle: string;
  expires_at: string;
}

/** What the server said at start (askServer); undefined until it answered. */
let confirmed: Session | null | undefined;

/** Who is logged in: the server's answer once it came, before that the localStorage hint. */
export function session(): Session | null {
  return confirmed !== undefined ? confirmed : hint();
}

function hint(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Partial<Session> | null;
    if (!s || typeof s.handle !== 'string' || typeof s.expires_at !== 'string') return null;
    return Date.parse(s.expires_at) > Date.now() ? { handle: s.handle, expires_at: s.expires_at } : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  confirmed = s;
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify({ handle: s.handle, expires_at: s.expires_at }));
  else localStorage.removeItem(SESSION_KEY);
}

/**
 * Asks the server who the session cookie belongs to (the truth: a cookie may outlive or precede
 * the hint). Unanswered (offline, 503): the hint stands.
 */
export async function askServer(): Promise<void> {
  try {
    const answer = await api<{ user: { handle: string } | null; expires_at: string | null }>('/auth/session');
    saveSession(
      answer.user && answer.expires_at ? { handle: answer.user.handle, expires_at: answer.expires_at } : null,
    );
  } catch (err) {
    if (err instanceof ProblemError && err.problem.status === 401) saveSession(null);
  }
}

const endedListeners: ((message: string) => void)[] = [];

/** Runs with the server's words when a request finds this device's session ended (expired, or ended elsewhere). */
export function onSessionEnded(listener: (message: string) => void): void {
  endedListeners.push(listener);
}

/** The server's answer to a session cookie that no longer works (errors/auth.ts sessionEnded). */
export function sessionEndedText(err: unknown): string | undefined {
  if (!(err instanceof ProblemError) || err.problem.status !== 401) return undefined;
  return (err.problem as { session_ended?: boolean }).session_ended === true ? err.problem.detail : undefined;
}

/** fetch's own failure (offline, the server unreachable) is a TypeError saying only "Failed to fetch". */
const UNREACHABLE = 'The server could not be reached: check your connection, then try again.';

export function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  // Same-origin fetches carry the session cookie; a 401 means it is gone (expired, revoked).
  return requestJson<T>(`/api/v1${path}`, { credentials: 'same-origin', ...init }).catch((err: unknown) => {
    if (err instanceof TypeError) throw new Error(UNREACHABLE, { cause: err });
    if (!(err instanceof ProblemError) || err.problem.status !== 401) throw err;
    const ended = sessionEndedText(err);
    // A refused login (wrong password) is the login form's own answer, not an ended session.
    if (path.startsWith('/auth/') && ended === undefined) throw err;
    const had = session() !== null;
    saveSession(null);
    if (ended !== undefined && had) endedListeners.forEach((l) => l(ended));
    throw err;
  });
}

export interface Version {
  id: string;
  number: number;
  status: string;
  error: string | null;
  duration_ms: number | null;
  loudness: { replay_gain_db: number | null; integrated_lufs: number } | null;
  hls_url: string | null;
  progressive_url: string | null;
  waveform_url: string | null;
  artwork_url: string | null;
  created_at: string;
}

export interface Tags {
  title: string | null;
  artist: string | null;
  album_artist: string | null;
  album: string | null;
  genre: string | null;
  track_number: number | null;
  year: number | null;
  date: string | null;
}

export interface Track {
  id: string;
  title: string;
  description: string;
  visibility: 'public' | 'unlisted' | 'private';
  owner_user_id: string;
  created_at: string;
  tags: Tags | null;
  current_version: Version | null;
  processing: { version_id: string; number: number; status: string; error: string | null } | null;
}

/** GET /tracks/:id: the track with what its page shows beside it. */
export interface TrackPage extends Track {
  owner: { handle: string; display_name: string };
  artist: { id: string; name: string } | null;
  album: { id: string; name: string } | null;
  counts: { plays: number; comments: number };
  /** The caller bought it (and may download the original). */
  owned?: boolean;
}

export interface TrackSummary {
  id: string;
  title: string;
  created_at: string;
}

/** A track as search, artists, albums and new uploads list it. */
export interface Song {
  id: string;
  title: string;
  artist: string;
  artist_id: string;
  album: string;
  album_id: string;
  year: number | null;
  genre: string | null;
  duration_ms: number | null;
  created_at: string;
  artwork_url: string | null;
}

export interface Album {
  id: string;
  name: string;
  artist: string;
  artist_id: string;
  year: number | null;
  genre: string | null;
  track_count: number;
}

export interface Artist {
  id: string;
  name: string;
  album_count: number;
}

export interface Comment {
  id: string;
  body: string;
  position_ms: number | null;
  version_id: string | null;
  user: { id: string; handle: string; display_name: string | null };
  created_at: string;
  edited_at: string | null;
}

/** The message of a failed request, for the part of the page it belongs to. */
export function problemText(err: unknown): string {
  if (!(err instanceof ProblemError)) return (err as Error).message;
  // The limiter's sentence names its scope for developers; a listener needs when to try again.
  if (err.problem.status === 429)
    return `Too many requests from your network just now: try again ${err.retryAfter ? `in ${err.retryAfter} s` : 'in a moment'}.`;
  return err.problem.detail ?? err.problem.title;
}

export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
