/** The music API as the player calls it: the session token kept in localStorage, problems as errors. */
import { requestJson } from '../../shared/http';

const TOKEN_KEY = 'music.session';

export interface Session {
  token: string;
  handle: string;
  expires_at: string;
}

export function session(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null') as Session | null;
    return s && Date.parse(s.expires_at) > Date.now() ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) localStorage.setItem(TOKEN_KEY, JSON.stringify(s));
  else localStorage.removeItem(TOKEN_KEY);
}

export function authHeader(): Record<string, string> {
  const s = session();
  return s ? { authorization: `Bearer ${s.token}` } : {};
}

export function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  return requestJson<T>(`/api/v1${path}`, { ...init, headers: { ...authHeader(), ...init.headers } });
}

export interface Version {
  id: string;
  status: string;
  duration_ms: number | null;
  loudness: { replay_gain_db: number | null; integrated_lufs: number } | null;
  hls_url: string | null;
  progressive_url: string | null;
  waveform_url: string | null;
  artwork_url: string | null;
}

export interface Track {
  id: string;
  title: string;
  description: string | null;
  visibility: string;
  owner_user_id: string;
  created_at: string;
  current_version: Version | null;
  processing: { version_id: string; status: string; error: string | null } | null;
}

export interface TrackSummary {
  id: string;
  title: string;
  created_at: string;
}

export interface Comment {
  id: string;
  body: string;
  position_ms: number | null;
  user: { handle: string; display_name: string | null };
  created_at: string;
}

export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
