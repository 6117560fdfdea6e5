/**
 * For bench/health-under-load.ts: the music-api's JSON routes (tracks, catalog, comments,
 * analytics, uploads, admin) driven with the worst valid input found for
 * each, read from the route's schema: the largest page, the longest strings, the largest body.
 * Accounts are in health-music-account-loads.ts; media, Subsonic and the rest in
 * health-music-media-loads.ts.
 */
import type { Load } from './health-poll.js';
import { bearer, call, curlPut, send } from './health-music-http.js';
import type { MusicServed } from './health-music-serve.js';

const long = (n: number, c = 'x') => c.repeat(n);
export async function musicApiLoads(s: MusicServed): Promise<Load[]> {
  const u = s.url;
  const auth = bearer(s.token);
  const admin = bearer(s.adminToken);
  const tags = {
    title: long(500),
    artist: long(500),
    album_artist: long(500),
    album: long(500),
    genre: long(200),
    track_number: 9999,
    disc_number: 9999,
    year: 9999,
    date: '2024-01-01',
  };
  // 10,000 parts (the schema's most) with S3-form etags: the longest list under the 1 MB JSON limit.
  const parts = Array.from({ length: 10_000 }, (_, i) => ({
    part_number: i + 1,
    etag: `"${long(32, 'e')}"`,
  }));
  const search = JSON.parse(
    (await call(`${u}/api/v1/search?q=Track&limit=50`, { headers: auth })).bytes.toString(),
  ) as { tracks: { artist_id: string; album_id: string }[] };
  const artistId = search.tracks[0]?.artist_id ?? 'none';
  const albumId = search.tracks[0]?.album_id ?? 'none';
  const newTrack = async () =>
    (
      JSON.parse(
        (
          await call(`${u}/api/v1/tracks`, { method: 'POST', headers: auth, body: { title: 'to delete' } })
        ).bytes.toString(),
      ) as { id: string }
    ).id;
  const initBody = () => ({
    filename: `${long(250)}.flac`,
    content_type: 'audio/flac',
    size: 500 * 1000 * 1000,
    sha256: long(64, 'a'),
    part_size: 5 * 1024 * 1024,
  });
  const fivePart = Buffer.alloc(5 * 1024 * 1024, 2);
  const open = async () => {
    const init = await call(`${u}/api/v1/upload/multipart/init`, {
      method: 'POST',
      headers: auth,
      body: initBody(),
    });
    return (JSON.parse(init.bytes.toString()) as { upload_id: string }).upload_id;
  };
  const abort = (id: string) =>
    call(`${u}/api/v1/upload/multipart/${id}`, { method: 'DELETE', headers: auth });
  return [
    // Tracks and the catalog: the owner of all 501 tracks, the largest pages.
    {
      route: 'GET /api/v1/me/tracks',
      input: 'limit=100 of 501 tracks',
      send: send(`${u}/api/v1/me/tracks?limit=100`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/users/:handle',
      input: 'limit=100, the owner of 501 tracks',
      send: send(`${u}/api/v1/users/${s.handle}?limit=100`),
    },
    {
      route: 'POST /api/v1/tracks',
      input: '200-character title, 5,000-character description',
      send: send(`${u}/api/v1/tracks`, {
        method: 'POST',
        headers: auth,
        body: { title: long(200), description: long(5000) },
      }),
    },
    {
      route: 'GET /api/v1/tracks/:id',
      input: 'the pipeline track, as its owner (signed URLs)',
      send: send(`${u}/api/v1/tracks/${s.trackId}`, { headers: auth }),
    },
    {
      route: 'PATCH /api/v1/tracks/:id',
      input: 'title, 5,000-character description and every tag at its longest',
      send: send(`${u}/api/v1/tracks/${s.trackId}`, {
        method: 'PATCH',
        headers: auth,
        body: { title: 'Bench pipeline', description: long(5000), visibility: 'public', tags },
      }),
    },
    {
      route: 'DELETE /api/v1/tracks/:id',
      input: 'a track made for it (the POST included)',
      send: async () =>
        (await call(`${u}/api/v1/tracks/${await newTrack()}`, { method: 'DELETE', headers: auth })).status,
    },
    {
      route: 'POST /api/v1/tracks/:id/versions',
      input: "the pipeline's uploaded asset again (a version row, a flow enqueued)",
      send: send(`${u}/api/v1/tracks/${s.trackId}/versions`, {
        method: 'POST',
        headers: auth,
        body: { asset_id: s.assetId },
      }),
    },
    {
      route: 'GET /api/v1/tracks/:id/versions',
      input: 'the pipeline track, as its owner',
      send: send(`${u}/api/v1/tracks/${s.trackId}/versions`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/trending',
      input: 'window=week, limit=100',
      send: send(`${u}/api/v1/trending?window=week&limit=100`),
    },
    {
      route: 'GET /api/v1/search',
      input: 'q=Track (matches 500), limit=50',
      send: send(`${u}/api/v1/search?q=Track&limit=50`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/search',
      input: 'a 200-character query',
      send: send(`${u}/api/v1/search?q=${long(200, 'a')}&limit=50`, { headers: auth }),
    },
    { route: 'GET /api/v1/new', input: 'limit=100', send: send(`${u}/api/v1/new?limit=100`) },
    {
      route: 'GET /api/v1/artists/:id',
      input: 'an artist of 10 albums',
      send: send(`${u}/api/v1/artists/${artistId}`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/albums/:id',
      input: 'an album of the library',
      send: send(`${u}/api/v1/albums/${albumId}`, { headers: auth }),
    },
    // Comments and plays.
    {
      route: 'POST /api/v1/comments',
      input: 'the pipeline track, 2,000-character body, a position',
      send: send(`${u}/api/v1/comments`, {
        method: 'POST',
        headers: auth,
        body: { track_id: s.trackId, body: long(2000), position_ms: 60_000, version_id: s.versionId },
      }),
    },
    {
      route: 'GET /api/v1/comments',
      input: 'limit=100 of the pipeline track',
      send: send(`${u}/api/v1/comments?track_id=${s.trackId}&limit=100`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/tracks/:id/comments',
      input: 'limit=100',
      send: send(`${u}/api/v1/tracks/${s.trackId}/comments?limit=100`, { headers: auth }),
    },
    {
      route: 'PATCH /api/v1/comments/:id',
      input: 'a 2,000-character body',
      send: send(`${u}/api/v1/comments/${s.commentId}`, {
        method: 'PATCH',
        headers: auth,
        body: { body: long(2000, 'y') },
      }),
    },
    {
      route: 'DELETE /api/v1/comments/:id',
      input: 'a comment made for it (the POST included)',
      send: async () => {
        const c = await call(`${u}/api/v1/comments`, {
          method: 'POST',
          headers: auth,
          body: { track_id: s.trackId, body: 'bye' },
        });
        const id = (JSON.parse(c.bytes.toString()) as { id: string }).id;
        return (await call(`${u}/api/v1/comments/${id}`, { method: 'DELETE', headers: auth })).status;
      },
    },
    {
      route: 'POST /api/v1/analytics/plays',
      input: 'track, version and position',
      send: send(`${u}/api/v1/analytics/plays`, {
        method: 'POST',
        body: { track_id: s.trackId, version_id: s.versionId, position_ms: 86_400_000 },
      }),
    },
    // Uploads: the largest upload, the largest part, the longest part list.
    {
      route: 'POST /api/v1/upload/multipart/init',
      input:
        '500 MB at 5 MiB parts (100 part URLs), 254-character filename; then its abort (the per-account cap of unfinished uploads never reached)',
      send: async () => (await abort(await open())).status,
    },
    {
      route: 'PUT /api/v1/upload/multipart/:upload_id/parts/:n',
      input: `a ${(s.partSize / 2 ** 20).toFixed(0)} MiB part (the largest part size), sent by curl`,
      send: () =>
        curlPut(`${u}/api/v1/upload/multipart/${s.uploadId}/parts/1`, s.partFile, {
          ...auth,
          'content-type': 'application/octet-stream',
        }),
    },
    {
      route: 'GET /api/v1/upload/multipart/:upload_id',
      input: 'the 500 MB upload',
      send: send(`${u}/api/v1/upload/multipart/${s.uploadId}`, { headers: auth }),
    },
    {
      route: 'DELETE /api/v1/upload/multipart/:upload_id',
      input: 'an upload with a 5 MiB part stored (its init and part PUT included)',
      send: async () => {
        const id = await open();
        await call(`${u}/api/v1/upload/multipart/${id}/parts/1`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: fivePart,
        });
        return (await abort(id)).status;
      },
    },
    {
      route: 'POST /api/v1/upload/multipart/complete',
      input: '10,000 parts listed (the schema maximum, 690 KB) against the 500 MB upload',
      send: send(`${u}/api/v1/upload/multipart/complete`, {
        method: 'POST',
        headers: auth,
        body: { upload_id: s.uploadId, asset_id: s.uploadAssetId, parts },
      }),
    },
    // Admin.
    {
      route: 'GET /api/v1/admin/mail/failed',
      input: 'limit=500, as an admin',
      send: send(`${u}/api/v1/admin/mail/failed?limit=500`, { headers: admin }),
    },
    {
      route: 'POST /api/v1/admin/jobs/retry',
      input: 'queue transcode, limit=1000, as an admin',
      send: send(`${u}/api/v1/admin/jobs/retry`, {
        method: 'POST',
        headers: admin,
        body: { queue: 'transcode', limit: 1000 },
      }),
    },
  ];
}
