/**
 * For bench/health-under-load.ts: the music-api's media and everything not JSON — signed HLS
 * (as GET /api/v1/tracks/:id hands it out, playlists followed to their segments), waveforms,
 * artwork, the Subsonic endpoints that move the most (stream raw and transcoded, download,
 * cover art, the 500-entry lists), the live-updates socket, payments (off), /metrics, the player.
 */
import type { Load } from './health-poll.js';
import { bearer, call, send } from './health-music-http.js';
import type { MusicServed } from './health-music-serve.js';

/** Every URI a playlist names (lines and URI="…" attributes), resolved against the playlist's URL. */
function playlistUris(base: string, text: string): string[] {
  const uris: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line && !line.startsWith('#')) uris.push(new URL(line, base).href);
    for (const m of line.matchAll(/URI="([^"]+)"/g)) uris.push(new URL(m[1]!, base).href);
  }
  return uris;
}

/** A WebSocket upgrade, the hello with a token, the first answer, closed. */
function liveSession(url: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/v1/events');
    const timer = setTimeout(() => ws.close(), 5000);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', v: 1, token, last_id: '0-0' }));
    ws.onmessage = () => ws.close();
    ws.onclose = (e) => {
      clearTimeout(timer);
      resolve(e.code === 1000 || e.code === 1005 ? 101 : e.code);
    };
    ws.onerror = () => resolve(0);
  });
}

export async function musicMediaLoads(s: MusicServed): Promise<Load[]> {
  const u = s.url;
  const auth = bearer(s.token);
  const track = JSON.parse(
    (await call(`${u}/api/v1/tracks/${s.trackId}`, { headers: auth })).bytes.toString(),
  ) as {
    current_version: { hls_url: string; progressive_url: string; waveform_url: string; artwork_url: string };
  };
  const v = track.current_version;
  const master = `${u}${v.hls_url}`;
  const renditions = playlistUris(master, (await call(master)).bytes.toString());
  // The top rendition (the master lists the ladder lowest first) and every segment it names.
  const top = renditions.at(-1)!;
  const segments = playlistUris(top, (await call(top)).bytes.toString());
  const sizes = await Promise.all(segments.map(async (x) => (await call(x)).bytes.length));
  const biggest = segments[sizes.indexOf(Math.max(...sizes))]!;
  let next = 0;
  const rest = `${u}/rest`;
  const q = `apiKey=${s.apiKey}&f=json`;
  const found = JSON.parse(
    (await call(`${rest}/search3.view?${q}&query=${encodeURIComponent('Bench pipeline')}`)).bytes.toString(),
  ) as { 'subsonic-response': { searchResult3: { song?: { id: string; coverArt?: string }[] } } };
  const song = found['subsonic-response'].searchResult3.song?.[0];
  const songId = song?.id ?? s.trackId;
  const longQuery = encodeURIComponent('a'.repeat(255));
  const sub = (endpoint: string, input: string, query: string): Load => ({
    route: 'GET /rest/:endpoint',
    input: `${endpoint}: ${input}`,
    send: send(`${rest}/${endpoint}?${q}&${query}`),
  });
  return [
    { route: 'GET /media/hls/*', input: 'the master playlist (re-signed per answer)', send: send(master) },
    { route: 'GET /media/hls/*', input: 'the top rendition playlist', send: send(top) },
    {
      route: 'GET /media/hls/*',
      input: `every segment of the top rendition in turn (${segments.length}, up to ${(Math.max(...sizes) / 1024).toFixed(0)} KiB)`,
      send: send(() => segments[next++ % segments.length]!),
    },
    {
      route: 'GET /media/hls/*',
      input: 'the largest segment, a range over the whole file',
      send: send(biggest, { headers: { range: 'bytes=0-' } }),
    },
    {
      route: 'GET /media/hls/*',
      input: 'the progressive file, whole',
      send: send(`${u}${v.progressive_url}`),
    },
    {
      route: 'GET /waveforms/*',
      input: "the pipeline track's waveform",
      send: send(`${u}${v.waveform_url}`),
    },
    { route: 'GET /images/*', input: 'the 600 px cover', send: send(`${u}${v.artwork_url}`) },
    sub('stream', 'raw (format=raw), the whole original', `id=${songId}&format=raw`),
    sub(
      'stream',
      'transcoded (format=mp3, maxBitRate=320: an ffmpeg per request)',
      `id=${songId}&format=mp3&maxBitRate=320`,
    ),
    sub('stream', 'maxBitRate=96, timeOffset=60 (ffmpeg seeks)', `id=${songId}&maxBitRate=96&timeOffset=60`),
    sub('download', 'the whole original', `id=${songId}`),
    sub('getCoverArt', 'size=10000 (the 600 px file)', `id=${song?.coverArt ?? songId}&size=10000`),
    sub('hls.m3u8', 'the redirect to the signed playlist', `id=${songId}`),
    sub('search3', 'a 255-character query', `query=${longQuery}`),
    sub(
      'search3',
      '"Track" (matches 500), 500 of each kind',
      'query=Track&songCount=500&albumCount=500&artistCount=500',
    ),
    sub('getAlbumList2', 'alphabeticalByName, size=500', 'type=alphabeticalByName&size=500'),
    sub('getRandomSongs', 'size=500', 'size=500'),
    sub('getIndexes', '50 artists', ''),
    sub('getArtists', '50 artists', ''),
    {
      route: 'GET /rest/*',
      input: 'getSong.view (the .view twin of each endpoint)',
      send: send(`${rest}/getSong.view?${q}&id=${songId}`),
    },
    {
      route: 'GET /api/v1/events',
      input: 'upgrade, hello with a token and last_id 0-0, closed',
      send: () => liveSession(u, s.token),
    },
    { route: 'GET /metrics', input: 'as a scraper (loopback)', send: send(`${u}/metrics`) },
    {
      route: 'GET /api/v1/health/ready',
      input: 'database, Redis and store probed',
      send: send(`${u}/api/v1/health/ready`),
    },
    { route: 'GET /favicon.svg', input: 'as is', send: send(`${u}/favicon.svg`) },
    {
      route: 'GET /assets/*',
      input: 'the largest player script',
      send: send(`${u}/assets/${await largestAsset(u)}`),
    },
    {
      route: 'GET *',
      input: 'a player page (/tracks/<id>: the index)',
      send: send(`${u}/tracks/${s.trackId}`),
    },
    // Payments are off in the bench's config: each answers 503 before any work.
    { route: 'GET /api/v1/payments', input: 'status (payments off)', send: send(`${u}/api/v1/payments`) },
    ...(
      [
        'tracks/:id',
        'tracks/:id/download',
        'purchases/:id',
        'library',
        'sales',
        'download/:track_id',
      ] as const
    ).map((p): Load => ({
      route: `GET /api/v1/payments/${p}`,
      input: 'payments off',
      send: send(`${u}/api/v1/payments/${p.replace(/:[a-z_]+/, s.trackId)}`, { headers: auth }),
    })),
    {
      route: 'PUT /api/v1/payments/tracks/:id',
      input: 'a price (payments off)',
      send: send(`${u}/api/v1/payments/tracks/${s.trackId}`, {
        method: 'PUT',
        headers: auth,
        body: { currency: 'eur', amount: 500 },
      }),
    },
    {
      route: 'POST /api/v1/payments/checkout',
      input: 'a sale (payments off)',
      send: send(`${u}/api/v1/payments/checkout`, {
        method: 'POST',
        headers: auth,
        body: { track_id: s.trackId, kind: 'sale' },
      }),
    },
    {
      route: 'POST /api/v1/payments/webhook',
      input: 'a 255 KiB unsigned event, just under its body limit (payments off)',
      send: send(`${u}/api/v1/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"x":"${'x'.repeat(255 * 1024)}"}`,
      }),
    },
  ];
}

/** The name of the player's largest asset, read from its index page. */
async function largestAsset(u: string): Promise<string> {
  const page = (await call(`${u}/`)).bytes.toString();
  const names = [...page.matchAll(/\/assets\/([^"']+)/g)].map((m) => m[1]!);
  const sizes = await Promise.all(names.map(async (n) => (await call(`${u}/assets/${n}`)).bytes.length));
  return names[sizes.indexOf(Math.max(...sizes))] ?? 'index.js';
}
