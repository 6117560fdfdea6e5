/**
 * `make load` / `make soak`: the load scenarios against a running stack on loopback, each bounded
 * in time (LOAD_SECONDS, default 20) and iterations, each printing its summary table. Exit 1
 * when any scenario saw a 5xx, a transport error or a failed check of its own.
 *
 *   EVAL_URL=http://127.0.0.1:8080 MUSIC_URL=http://127.0.0.1:8081 MUSIC_TRACK_IDS=<id,...> \
 *     LOAD_SCENARIOS=eval-mixed,browse-stream,upload-burst,rate-limit npx tsx load-tests/run.ts
 *
 * The music API should run with TRUSTED_PROXIES=127.0.0.1 (each iteration then looks like a new
 * client, so the traffic scenarios are not throttled) and RATE_LIMITS=on for rate-limit.
 * LOAD_SCENARIOS=soak LOAD_SECONDS=1800 is the soak (samples every LOAD_SAMPLE_SECONDS, 60).
 */
import { assertTarget } from './lib/http.js';
import { failuresOf, formatResult, type ScenarioResult } from './lib/report.js';
import { browseStream } from './scenarios/browse-stream.js';
import { evalMixed } from './scenarios/eval-mixed.js';
import { loadOptions } from './scenarios/options.js';
import { rateLimits, SEED_SCOPES } from './scenarios/rate-limit.js';
import { soak } from './scenarios/soak.js';
import { uploadBurst } from './scenarios/upload-burst.js';

export const SCENARIOS = ['eval-mixed', 'browse-stream', 'upload-burst', 'rate-limit', 'soak'] as const;

async function reachable(what: string, url: string, variable: string): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })
      .cause;
    const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).message;
    throw new Error(
      `cannot reach the ${what} at ${new URL(url).origin} (${why}): start it, or set ${variable}`,
      { cause: err },
    );
  }
}

export async function runScenarios(
  env: NodeJS.ProcessEnv,
  print: (text: string) => void,
): Promise<{ results: ScenarioResult[]; failed: number }> {
  const evalUrl = env.EVAL_URL ?? 'http://127.0.0.1:8080';
  const musicUrl = env.MUSIC_URL ?? 'http://127.0.0.1:8081';
  for (const url of [evalUrl, musicUrl]) assertTarget(url, env);
  const names = (env.LOAD_SCENARIOS ?? 'eval-mixed,browse-stream,upload-burst,rate-limit')
    .split(',')
    .map((s) => s.trim());
  const unknown = names.filter((n) => !(SCENARIOS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
  const needsEval = names.some((n) => n === 'eval-mixed' || n === 'soak');
  const needsMusic = names.some((n) => n !== 'eval-mixed');
  if (needsEval) await reachable('eval service', `${evalUrl}/api/health`, 'EVAL_URL');
  if (needsMusic) await reachable('music API', `${musicUrl}/api/v1/health/ready`, 'MUSIC_URL');
  const options = loadOptions(env);
  const trackIds = (env.MUSIC_TRACK_IDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const scopes = env.LOAD_RATE_SCOPES
    ? SEED_SCOPES.filter((s) => env.LOAD_RATE_SCOPES!.split(',').includes(s.scope))
    : SEED_SCOPES;
  const results: ScenarioResult[] = [];
  for (const name of names) {
    const result =
      name === 'eval-mixed'
        ? await evalMixed(evalUrl, options)
        : name === 'browse-stream'
          ? await browseStream(musicUrl, trackIds, options)
          : name === 'upload-burst'
            ? await uploadBurst(musicUrl, Number(env.LOAD_UPLOADS ?? 20), options)
            : name === 'rate-limit'
              ? await rateLimits(musicUrl, scopes, Number(env.LOAD_RATE_CYCLES ?? 2))
              : await soak(
                  { evalUrl, musicUrl, trackIds },
                  { ...options, sampleSeconds: Number(env.LOAD_SAMPLE_SECONDS ?? 60) },
                  (l) => print(`${l}\n`),
                );
    print(formatResult(result));
    results.push(result);
  }
  return { results, failed: results.filter((r) => failuresOf(r).length > 0).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { failed } = await runScenarios(process.env, (t) => process.stdout.write(t));
    process.exitCode = failed > 0 ? 1 : 0;
  } catch (err) {
    process.stderr.write(`load: ${(err as Error).message}\n`);
    process.exitCode = 2;
  }
}
