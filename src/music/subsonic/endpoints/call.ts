/**
 * What every Subsonic endpoint shares: the call it answers (the authenticated caller and the
 * request's parameters), what it may answer (a payload rendered by the route as XML/JSON/JSONP,
 * a binary body or a redirect), its dependencies, and the parameter readers the areas reuse.
 * Visibility is the library repository's: public songs and the caller's own.
 */
import type { AuthContext } from '../../auth-context.js';
import { isUuid } from '../../uuid.js';
import type { SubsonicAnnotationRepository } from '../../repositories/subsonic/annotation-repository.js';
import type { SongRow, Viewer } from '../../repositories/subsonic/library-model.js';
import type { SubsonicLibraryRepository } from '../../repositories/subsonic/library-repository.js';
import type { SubsonicStateRepository } from '../../repositories/subsonic/state-repository.js';
import type { AnalyticsService } from '../../services/analytics-service.js';
import type { PlaylistService } from '../../services/playlist-service.js';
import type { SubsonicUser } from '../client-key-service.js';
import type { BinaryAnswer, RedirectAnswer, SongStreams } from '../song-streams.js';
import type { Params } from '../params.js';
import { badParameter, notFound } from '../errors.js';
import { type Payload } from '../response.js';

export interface Call {
  user: SubsonicUser;
  params: Params;
  /** The client address (for the play analytics' listener hash). */
  address: string;
  range: string | undefined;
  signal: AbortSignal;
  /** How the caller authenticated: tokenInfo answers for API keys only. */
  viaApiKey: boolean;
}

export type Answer = Payload | BinaryAnswer | RedirectAnswer;
export type Handler = (call: Call) => Answer | Promise<Answer>;

export interface EndpointDeps {
  library: SubsonicLibraryRepository;
  annotations: SubsonicAnnotationRepository;
  state: SubsonicStateRepository;
  playlists: PlaylistService;
  media: SongStreams;
  analytics: AnalyticsService;
  nowMs: () => number;
}

export const ALBUM_ID = /^al-[0-9a-f]{24}$/;
export const ARTIST_ID = /^ar-[0-9a-f]{24}$/;
export const MAX_PAGE = 500;

/** The caller as the library's viewer for listing, in the music folder asked (if any). */
export function viewer(call: Call): Viewer {
  const folder = call.params.optionalInt('musicFolderId', 1, 2);
  return { userId: call.user.userId, ...(folder !== undefined ? { folder } : {}) };
}

/** The caller as the library's viewer: who, and with which role (the visibility policy reads both). */
export function viewerOf(c: Call): Viewer {
  return { userId: c.user.userId, role: c.user.role };
}

export const songId = (id: string): string => {
  if (!isUuid(id)) throw notFound('Song');
  return id.toLowerCase();
};

/** A song the caller may read, by its id, else the Subsonic not-found error. */
export async function visibleSong(d: EndpointDeps, c: Call, id: string): Promise<SongRow> {
  const song = await d.library.song(viewerOf(c), songId(id));
  if (!song) throw notFound('Song');
  return song;
}

/** Song ids a playlist or queue may hold: each must be visible to the caller. */
export async function checkedSongIds(d: EndpointDeps, c: Call, ids: string[]): Promise<string[]> {
  const normalised = ids.map(songId);
  const found = new Set((await d.library.songsByIds(viewerOf(c), [...new Set(normalised)])).map((s) => s.id));
  if (normalised.some((id) => !found.has(id))) throw notFound('Song');
  if (normalised.length > 10_000) throw badParameter('songId', 'a playlist holds at most 10000 songs');
  return normalised;
}

export function authContext(user: SubsonicUser): AuthContext {
  return { userId: user.userId, handle: user.handle, role: user.role, jti: 'subsonic', exp: 0 };
}

export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
