/**
 * Media delivery: signed HLS from the transcodes store, public images and waveforms. Decides
 * status, headers and body for a request path; the route only copies the answer onto the
 * reply. Hot objects come from an in-process byte-bounded cache (X-Cache-Status HIT/MISS);
 * playlists are cached as stored and re-signed on every response.
 */
import { AppError } from '../../core/errors.js';
import {
  mediaLinkExpired,
  mediaLinkNotSigned,
  mediaObjectNotFound,
  rangeOutsideObject,
} from '../errors/media.js';
import type { ByteRange, ObjectStore } from '../repositories/object-store/object-store.js';
import { contentTypeFor } from '../repositories/object-store/object-store.js';
import { contentTypeOfKind, mediaKindOfInit, type MediaKind } from './fmp4-kind.js';
import { isPlaylistKey, rewritePlaylist } from './hls-playlist.js';
import type { CachedObject, HotObjectCache } from './hot-object-cache.js';
import { keyUnderMount, normaliseRequestPath, pathOfUrl } from './media-path.js';
import { verifySecureLink } from './secure-link.js';
import { imageServedType, storedBytesHeaders } from './stored-media.js';
import { rangedBufferAnswer, rangedObjectAnswer, type MediaAnswer } from './ranged-object.js';
import { maySee, type Viewer } from './visibility-policy.js';
import { isUuid } from '../uuid.js';
import type { Visibility } from './visibility-policy.js';

export const HLS_MOUNT = '/media/hls/';
export const IMAGES_MOUNT = '/images/';
export const WAVEFORMS_MOUNT = '/waveforms/';
export type ObjectMount = typeof IMAGES_MOUNT | typeof WAVEFORMS_MOUNT;

export const HLS_CACHE_CONTROL = 'public, max-age=3600';
export const PUBLIC_CACHE_CONTROL = 'public, max-age=604800, immutable';
/** A private track's media, seen by its owner or an admin: never kept by a shared cache. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** The owner and visibility of a version's track, or undefined when there is no such version. */
export type VersionTrackLookup = (
  versionId: string,
) => Promise<{ ownerUserId: string; visibility: Visibility } | undefined>;

export interface MediaDeliveryDeps {
  /** Every media key starts with its version id: the track's visibility decides, per request. */
  trackOfVersion: VersionTrackLookup;
  transcodes: ObjectStore;
  images: ObjectStore;
  waveforms: ObjectStore;
  cache: HotObjectCache;
  secureLinkSecret: string;
  nowSeconds: () => number;
}

/** fMP4 media and initialisation segments, typed by what their rendition carries. */
const FRAGMENT = /\.(?:m4s|mp4)$/i;
const INIT_SEGMENT = /^init[^/]*\.mp4$/i;
/** An init segment's moov is a few hundred bytes; this bounds what is read to find it. */
const INIT_READ_BYTES = 64 * 1024;
/** Renditions whose kind is remembered (insertion order: the oldest is dropped first). */
const MAX_RENDITION_KINDS = 4096;

/** A signed link's query parameters (each once; a repeated one is not a signature). */
export interface HlsLinkQuery {
  sig?: string;
  expires?: string;
}

/** The edge's check: allowed, with the Cache-Control the media itself would carry. */
export interface MediaAccess {
  status: 204;
  headers: Record<string, string>;
}

const granted = (cacheControl: string): MediaAccess => ({
  status: 204,
  headers: { 'cache-control': cacheControl },
});

type ContentTypeOf = (key: string) => Promise<string>;
const byExtension: ContentTypeOf = (key) => Promise.resolve(contentTypeFor(key));

/** The images mount serves raster types as themselves, anything else (SVG: script) as a download. */
const imageType: ContentTypeOf = (key) => Promise.resolve(imageServedType(contentTypeFor(key)));

export class MediaDelivery {
  private readonly renditionKinds = new Map<string, MediaKind>();

  constructor(private readonly deps: MediaDeliveryDeps) {}

  /** GET /media/hls/<path>?sig=…&expires=… */
  async hls(
    rawUrl: string,
    query: HlsLinkQuery,
    rangeHeader: string | undefined,
    viewer: Viewer = undefined,
  ): Promise<MediaAnswer> {
    const { uri, key, cacheControl } = await this.authoriseHls(rawUrl, query, viewer);
    if (isPlaylistKey(key)) {
      const { object, cacheStatus } = await this.loadWhole(this.deps.transcodes, 'hls:', key);
      const text = rewritePlaylist(object.body.toString('utf8'), {
        playlistPath: uri,
        mount: HLS_MOUNT,
        secret: this.deps.secureLinkSecret,
        expires: Number(query.expires),
      });
      const body = Buffer.from(text, 'utf8');
      return {
        status: 200,
        headers: {
          ...storedBytesHeaders(object.contentType),
          'cache-control': cacheControl,
          'x-cache-status': cacheStatus,
        },
        body,
      };
    }
    const typeOf = FRAGMENT.test(key) ? (k: string) => this.renditionContentType(k) : byExtension;
    return this.serve(this.deps.transcodes, 'hls:', key, rangeHeader, cacheControl, typeOf);
  }

  /**
   * GET /media/access/media/hls/<path>?sig=…&expires=…: the edge asks before it serves cached
   * bytes (nginx auth_request, docs/operations.md "nginx"). The same rule as hls(), no object read:
   * the Cache-Control hls() would answer with, or its refusal.
   */
  async hlsAccess(rawUrl: string, query: HlsLinkQuery, viewer: Viewer = undefined): Promise<MediaAccess> {
    return granted((await this.authoriseHls(rawUrl, query, viewer)).cacheControl);
  }

  /**
   * The one rule for a signed HLS request: path normalisation, signature, expiry, then the
   * track's visibility for the viewer. Throws the refusal (403, 410, 404).
   */
  private async authoriseHls(
    rawUrl: string,
    query: HlsLinkQuery,
    viewer: Viewer,
  ): Promise<{ uri: string; key: string; cacheControl: string }> {
    const normalised = normaliseRequestPath(pathOfUrl(rawUrl));
    if (!normalised.ok) throw mediaObjectNotFound();
    const uri = normalised.path;
    const verdict = verifySecureLink({
      uri,
      sig: query.sig,
      expires: query.expires,
      secret: this.deps.secureLinkSecret,
      nowSeconds: this.deps.nowSeconds(),
    });
    if (verdict === 'forbidden') {
      throw mediaLinkNotSigned();
    }
    if (verdict === 'expired') throw mediaLinkExpired();
    const key = keyUnderMount(uri, HLS_MOUNT);
    if (key === undefined) throw mediaObjectNotFound();
    // A link signed before the track was made private (or deleted) stops working at once (docs/music-domain.md).
    const cacheControl = await this.readable(key, viewer, HLS_CACHE_CONTROL, this.deps.transcodes);
    return { uri, key, cacheControl };
  }

  /**
   * The visibility policy's read access for the track of the key's version (its first segment),
   * checked on every request, before any cache: a 404 when the viewer may not read it. Returns
   * the Cache-Control to answer with (no shared caching of a private track's media). With
   * `orphans`, a key under no version must still be stored there: a deleted track's rows go
   * first, then its objects, so a cached copy (ours or the edge's) is not served after.
   */
  private async readable(
    key: string,
    viewer: Viewer,
    publicCacheControl: string,
    orphans?: ObjectStore,
  ): Promise<string> {
    const versionId = key.slice(0, key.indexOf('/'));
    const track = isUuid(versionId) ? await this.deps.trackOfVersion(versionId.toLowerCase()) : undefined;
    if (!track) {
      // A key under no existing version is no track's media (the pipeline writes none): served while
      // stored. Keys not under a version at all (profile pictures) are the store's to answer.
      const versionShaped = isUuid(versionId);
      if (orphans && versionShaped && !(await this.safe(() => orphans.head(key))))
        throw mediaObjectNotFound();
      return publicCacheControl;
    }
    if (!maySee('read', viewer, track)) throw mediaObjectNotFound();
    return track.visibility === 'private' ? PRIVATE_CACHE_CONTROL : publicCacheControl;
  }

  /** audio/mp4 or video/mp4 by the rendition's init segment (the folder the key is in). */
  private async renditionContentType(key: string): Promise<string> {
    const dir = key.slice(0, key.lastIndexOf('/') + 1);
    let kind = this.renditionKinds.get(dir);
    if (kind === undefined) {
      kind = await this.readRenditionKind(dir);
      if (kind === undefined) return contentTypeOfKind('audio');
      if (this.renditionKinds.size >= MAX_RENDITION_KINDS) {
        const oldest = this.renditionKinds.keys().next().value;
        if (oldest !== undefined) this.renditionKinds.delete(oldest);
      }
      this.renditionKinds.set(dir, kind);
    }
    return contentTypeOfKind(kind);
  }

  /** undefined when the folder has no init segment (yet): nothing is remembered then. */
  private async readRenditionKind(dir: string): Promise<MediaKind | undefined> {
    if (dir === '') return undefined;
    const store = this.deps.transcodes;
    const keys = await this.safe(() => store.list(dir));
    const init = keys?.find((k) => INIT_SEGMENT.test(k.slice(dir.length)));
    if (init === undefined) return undefined;
    const got = await this.safe(() => store.get(init, { start: 0, end: INIT_READ_BYTES - 1 }));
    if (!got) return undefined;
    return mediaKindOfInit(Buffer.concat(await got.body.toArray()));
  }

  /** GET /images/<path> and GET /waveforms/<path>: public. */
  async publicObject(
    mount: ObjectMount,
    rawUrl: string,
    rangeHeader: string | undefined,
    viewer: Viewer = undefined,
  ): Promise<MediaAnswer> {
    const { key, cacheControl } = await this.authoriseObject(mount, rawUrl, viewer);
    if (mount === WAVEFORMS_MOUNT)
      return this.serve(this.deps.waveforms, mount, key, rangeHeader, cacheControl);
    return this.serve(this.deps.images, mount, key, rangeHeader, cacheControl, imageType);
  }

  /** GET /media/access/images/<path> (or waveforms): the edge's check, as hlsAccess for HLS. */
  async objectAccess(mount: ObjectMount, rawUrl: string, viewer: Viewer = undefined): Promise<MediaAccess> {
    return granted((await this.authoriseObject(mount, rawUrl, viewer)).cacheControl);
  }

  private async authoriseObject(
    mount: ObjectMount,
    rawUrl: string,
    viewer: Viewer,
  ): Promise<{ key: string; cacheControl: string }> {
    const normalised = normaliseRequestPath(pathOfUrl(rawUrl));
    if (!normalised.ok) throw mediaObjectNotFound();
    const key = keyUnderMount(normalised.path, mount);
    if (key === undefined) throw mediaObjectNotFound();
    // A private track's waveform and artwork are private too, at once, whatever their random path;
    // a deleted one's stop with its rows (an edge copy too).
    const store = mount === WAVEFORMS_MOUNT ? this.deps.waveforms : this.deps.images;
    return { key, cacheControl: await this.readable(key, viewer, PUBLIC_CACHE_CONTROL, store) };
  }

  private async serve(
    store: ObjectStore,
    ns: string,
    key: string,
    rangeHeader: string | undefined,
    cacheControl: string,
    typeOf: ContentTypeOf = byExtension,
  ): Promise<MediaAnswer> {
    const base = (contentType: string, cacheStatus: string): Record<string, string> => ({
      ...storedBytesHeaders(contentType),
      'cache-control': cacheControl,
      'accept-ranges': 'bytes',
      'x-cache-status': cacheStatus,
    });
    const cached = this.deps.cache.get(ns + key);
    if (cached) return this.fromBuffer(cached, rangeHeader, base(cached.contentType, 'HIT'));
    const info = await this.safe(() => store.head(key));
    if (!info) throw mediaObjectNotFound();
    const contentType = await typeOf(key);
    if (this.deps.cache.accepts(info.size)) {
      const { object } = await this.loadWhole(store, ns, key, false, contentType);
      return this.fromBuffer(object, rangeHeader, base(object.contentType, 'MISS'));
    }
    // Keys come from URLs: one the store refuses is simply not there.
    const safeStore = { get: (k: string, r?: ByteRange) => this.safe(() => store.get(k, r)) };
    return rangedObjectAnswer(safeStore, key, info.size, rangeHeader, base(contentType, 'MISS'), {
      missing: mediaObjectNotFound,
      outside: rangeOutsideObject,
    });
  }

  private fromBuffer(
    object: CachedObject,
    rangeHeader: string | undefined,
    headers: Record<string, string>,
  ): MediaAnswer {
    return rangedBufferAnswer(object.body, rangeHeader, headers, rangeOutsideObject);
  }

  /** `lookup: false` when the caller has just missed the cache for this key. */
  private async loadWhole(
    store: ObjectStore,
    ns: string,
    key: string,
    lookup = true,
    contentType = contentTypeFor(key),
  ): Promise<{ object: CachedObject; cacheStatus: 'HIT' | 'MISS' }> {
    const cached = lookup ? this.deps.cache.get(ns + key) : undefined;
    if (cached) return { object: cached, cacheStatus: 'HIT' };
    const got = await this.safe(() => store.get(key));
    if (!got) throw mediaObjectNotFound();
    const body = Buffer.concat(await got.body.toArray());
    const object: CachedObject = {
      body,
      contentType,
      etag: got.etag ?? '',
      lastModified: got.lastModified,
    };
    this.deps.cache.set(ns + key, object);
    return { object, cacheStatus: 'MISS' };
  }

  /** Keys come from URLs: one the store refuses is simply not there. */
  private async safe<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError && err.status === 400) return undefined;
      throw err;
    }
  }
}
