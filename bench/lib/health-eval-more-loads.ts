/**
 * For bench/health-under-load.ts: the eval rows of the two submits (a fresh session per request,
 * the largest body each route accepts), the open-bench ledger's pages, and the static, discovery
 * and workbench GETs as they are.
 */
import { MAX_FILE_CHARS, MAX_FILES_PER_ANSWER } from '../../src/eval/open-bench/schemas.js';
import type { Load } from './health-poll.js';

/** The routes' own body limits (src/eval/routes/open-bench.ts, report-card.ts). */
const OPEN_BENCH_BODY_LIMIT = 1024 * 1024;
const REPORT_CARD_ANSWER_CHARS = 500;
const TASKS = 6;
/** The leaderboard's largest page (LeaderboardQuery per_page). */
const PAGE = 100;

async function call(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.status, text: await res.text() };
}

const send =
  (url: string, method = 'GET'): Load['send'] =>
  async () =>
    (await call(url, method)).status;

/** A file of short KEY=value lines, MAX_FILE_CHARS long (each line parsed by the graders). */
const FILE = Array.from(
  { length: Math.ceil(MAX_FILE_CHARS / 12) },
  (_, i) => `K_${String(i).padStart(6, '0')}=1\n`,
)
  .join('')
  .slice(0, MAX_FILE_CHARS);
const bytes = (s: string) => JSON.stringify(s).length;

/**
 * Both sides answer all six tasks, writing the repository's files and then new ones (up to
 * MAX_FILES_PER_ANSWER each) of MAX_FILE_CHARS, round-robin, until the body is exactly the route's
 * limit (the schema's 2 × 6 × 20 × 20,000 characters would be 4.8 MB): the last file is cut to fit.
 */
function openBenchBody(sessionId: string, repository: Record<string, string>, publish: boolean): string {
  type Side = Record<string, { writes: Record<string, string> }>;
  const side = (): Side =>
    Object.fromEntries(Array.from({ length: TASKS }, (_, t) => [`task-${t + 1}`, { writes: {} }]));
  const body = {
    session_id: sessionId,
    baseline: side(),
    candidate: side(),
    ...(publish
      ? { publish: { display_name: 'health-under-load bench '.padEnd(64, '.'), attestation: true } }
      : {}),
  };
  const answers = [...Object.values(body.baseline), ...Object.values(body.candidate)];
  const paths = [
    ...Object.keys(repository),
    ...Array.from({ length: MAX_FILES_PER_ANSWER }, (_, j) => `pad/f${j}.txt`),
  ]
    .filter((p, i, all) => all.indexOf(p) === i)
    .slice(0, MAX_FILES_PER_ANSWER);
  let size = JSON.stringify(body).length;
  fill: for (const path of paths)
    for (const answer of answers) {
      const first = Object.keys(answer.writes).length === 0;
      const overhead = bytes(path) + 1 + (first ? 0 : 1);
      const room = OPEN_BENCH_BODY_LIMIT - size - overhead;
      if (room < bytes(FILE)) {
        let n = Math.min(FILE.length, room);
        while (n > 0 && bytes(FILE.slice(0, n)) > room) n--;
        if (n > 0) answer.writes[path] = FILE.slice(0, n);
        break fill;
      }
      answer.writes[path] = FILE;
      size += overhead + bytes(FILE);
    }
  return JSON.stringify(body);
}

async function openBenchSubmit(base: string, publish: boolean): Promise<{ status: number; text: string }> {
  const start = await call(`${base}/api/open-bench/start`, 'POST', '{}');
  if (start.status !== 200) return start;
  const s = JSON.parse(start.text) as { session_id: string; repository: { files: Record<string, string> } };
  return call(
    `${base}/api/open-bench/submit`,
    'POST',
    openBenchBody(s.session_id, s.repository.files, publish),
  );
}

/** Each item's class predicate narrowed by a conjunction of the costliest features, padded to 500 characters. */
function reportCardAnswer(classPredicate: string): string {
  let answer = `(${classPredicate}) and chromatic_number >= 0 and independence_number >= 0 and clique_number >= 0`;
  while (answer.length + ' and n >= 0'.length <= REPORT_CARD_ANSWER_CHARS) answer += ' and n >= 0';
  return answer;
}

async function reportCardSubmit(base: string): Promise<number> {
  const start = await call(`${base}/api/report-card/start`, 'POST', '{}');
  if (start.status !== 200) return start.status;
  const s = JSON.parse(start.text) as {
    session_id: string;
    items: { item_id: string; class_predicate: string }[];
  };
  const answers = Object.fromEntries(s.items.map((it) => [it.item_id, reportCardAnswer(it.class_predicate)]));
  return (
    await call(
      `${base}/api/report-card/submit`,
      'POST',
      JSON.stringify({ session_id: s.session_id, answers }),
    )
  ).status;
}

/** Run before the start rows: those fill each client's session cap, and a submit needs a start. */
export function evalSubmitLoads(base: string): Load[] {
  return [
    {
      route: 'POST /api/report-card/submit',
      input: `a fresh session per request (start, then submit): 6 answers of ${REPORT_CARD_ANSWER_CHARS} characters, the class predicate and the costliest features`,
      send: () => reportCardSubmit(base),
    },
    {
      route: 'POST /api/open-bench/submit',
      input: `a fresh session per request (start, then submit), published: 12 answers of files of ${MAX_FILE_CHARS.toLocaleString('en')} characters filling the route's ${OPEN_BENCH_BODY_LIMIT.toLocaleString('en')}-byte body limit`,
      send: async () => (await openBenchSubmit(base, true)).status,
    },
  ];
}

/** The ledger's largest page, a published receipt, and the GETs served as they are. */
export async function evalPageLoads(base: string): Promise<Load[]> {
  const published = await openBenchSubmit(base, true);
  const publicId =
    published.status === 200
      ? (JSON.parse(published.text) as { result: { publication: { public_id: string } } }).result.publication
          .public_id
      : 'ob_AAAAAAAAAAAAAAAAAAAAAA';
  // A full largest page: small published submits until the ledger holds PAGE receipts.
  const total = async () =>
    (JSON.parse((await call(`${base}/api/open-bench/leaderboard?per_page=1`)).text) as { total?: number })
      .total ?? 0;
  let filled = await total();
  while (published.status === 200 && filled < PAGE) {
    const start = await call(`${base}/api/open-bench/start`, 'POST', '{}');
    const sessionId = (JSON.parse(start.text) as { session_id: string }).session_id;
    const submit = {
      session_id: sessionId,
      baseline: {},
      candidate: {},
      publish: { display_name: 'filler', attestation: true },
    };
    if ((await call(`${base}/api/open-bench/submit`, 'POST', JSON.stringify(submit))).status !== 200) break;
    filled = await total();
  }
  const index = (await call(`${base}/`)).text;
  const asset = /\/assets\/[^"]+\.js/.exec(index)?.[0];
  const tool = (JSON.parse((await call(`${base}/api/catalog`)).text) as { tools: { id: string }[] }).tools[0]!
    .id;
  const loads: Load[] = [
    {
      route: 'GET /api/open-bench/leaderboard',
      input: `order=best, per_page=${PAGE} (the largest page), page 1, of ${filled} or more published receipts`,
      send: send(`${base}/api/open-bench/leaderboard?order=best&per_page=${PAGE}&page=1`),
    },
    {
      route: 'GET /api/open-bench/receipt/:public_id',
      input:
        published.status === 200
          ? 'a receipt published by a submit before the row'
          : `an unknown id (the publishing submit answered ${published.status})`,
      send: send(`${base}/api/open-bench/receipt/${publicId}`),
    },
  ];
  const asIs = [
    '/.well-known/receipt-keys.json',
    '/.well-known/mcp.json',
    '/mcp.json',
    '/llms.txt',
    '/llms-full.txt',
    '/leaderboard',
    '/skill.md',
    '/sitemap.xml',
    '/for-agents',
    '/favicon.svg',
    '/robots.txt',
    '/report-card',
    '/',
  ];
  for (const path of asIs) loads.push({ route: `GET ${path}`, input: 'as is', send: send(base + path) });
  loads.push(
    { route: 'GET /tools/:tool', input: `/tools/${tool}`, send: send(`${base}/tools/${tool}`) },
    {
      route: 'GET /assets/*',
      input: asset
        ? `the workbench's script, ${asset}`
        : 'an unknown path (no workbench built: the not-found answer)',
      send: send(base + (asset ?? '/no-such-page')),
    },
    { route: 'GET /metrics', input: 'from loopback (an allowed scraper)', send: send(`${base}/metrics`) },
  );
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'])
    loads.push({
      route: `${method} /mcp`,
      input: 'no body',
      send: send(`${base}/mcp`, method),
    });
  return loads;
}
