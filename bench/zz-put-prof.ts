import { startServeChild } from './lib/music-app.js';
const child = await startServeChild<{ url: string; token: string; uploadId: string; partSize: number }>(
  new URL('./health-under-load.ts', import.meta.url).pathname,
  { NODE_OPTIONS: '--require /tmp/prof/eld.cjs ' + (process.env.XOPT ?? '') },
);
const s = child.served;
const part = Buffer.alloc(s.partSize, 1);
await new Promise((r) => setTimeout(r, 8000));
const t0 = performance.now();
let n = 0;
await Promise.all([0, 1].map(async () => {
  while (performance.now() - t0 < 5000) {
    const res = await fetch(`${s.url}/api/v1/upload/multipart/${s.uploadId}/parts/1`, { method: 'PUT', body: part, headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/octet-stream' } });
    await res.arrayBuffer(); n++;
  }
}));
console.log('parts', n, 'MB/s', (n * s.partSize / 1e6 / ((performance.now() - t0) / 1000)).toFixed(0));
await child.stop();
