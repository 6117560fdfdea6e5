// `make start`'s banner: waits until every process started by scripts/start-all.sh answers its
// readiness probe, then prints where each one is and how to create the first admin. Ports are
// the processes' own settings (EVAL_PORT, MUSIC_PORT, WORKER_PORT) with their defaults.
import { setTimeout as sleep } from 'node:timers/promises';

const port = (name, fallback) => process.env[name] || fallback;
const evalUrl = `http://localhost:${port('EVAL_PORT', 8080)}`;
const musicUrl = `http://localhost:${port('MUSIC_PORT', 8081)}`;
const workerUrl = `http://localhost:${port('WORKER_PORT', 8082)}`;
const probes = [
  ['eval', `${evalUrl}/api/health`],
  ['music-api', `${musicUrl}/api/v1/health/ready`],
  ['music-worker', `${workerUrl}/health`],
];
const WAIT_MS = Number(process.env.START_WAIT_SECONDS || 180) * 1000;

async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

const deadline = Date.now() + WAIT_MS;
let waiting = probes;
while (waiting.length > 0 && Date.now() < deadline) {
  const ok = await Promise.all(waiting.map(([, url]) => answers(url)));
  waiting = waiting.filter((_p, i) => !ok[i]);
  if (waiting.length > 0) await sleep(250);
}
if (waiting.length > 0) {
  console.log(
    `\nstart: not ready after ${WAIT_MS / 1000} s: ${waiting.map(([name, url]) => `${name} (${url})`).join(', ')}; see the logs above\n`,
  );
  process.exit(1);
}
const rows = [
  ['workbench (eval)', `${evalUrl}/`],
  ['eval API', `${evalUrl}/api/catalog  ${evalUrl}/openapi.json`],
  ['for agents', `${evalUrl}/for-agents  ${evalUrl}/skill.md  ${evalUrl}/mcp (MCP)`],
  ['open bench', `${evalUrl}/leaderboard  ${evalUrl}/report-card`],
  ['music player', `${musicUrl}/`],
  ['music-worker', `${workerUrl}/health`],
];
const width = Math.max(...rows.map(([label]) => label.length));
const line = '─'.repeat(72);
console.log(
  [
    '',
    line,
    '  Everything is up.',
    ...rows.map(([label, url]) => `  ${label.padEnd(width)}  ${url}`),
    '',
    '  First admin:  bin/verifier-music admin create <handle> <email>   (asks for the password)',
    '  Stop:         Ctrl-C',
    line,
    '',
  ].join('\n'),
);
