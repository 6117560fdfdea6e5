/**
 * `make load` / `make soak`: the load scenarios, each bounded in time (LOAD_SECONDS, default 20)
 * and iterations, each printing its summary table. Exit 1 when any scenario saw a 5xx, a
 * transport error or a failed check of its own; exit 2 at once, in one line, when the target
 * cannot pass them (what to set is named).
 *
 * With neither EVAL_URL nor MUSIC_URL set, `make load` starts a stack of its own (stack.ts:
 * its own ports, database, Redis prefixes and track, the settings the scenarios need) and stops
 * it after. To load a stack you run instead:
 *
 *   EVAL_URL=http://127.0.0.1:8080 MUSIC_URL=http://127.0.0.1:8081 MUSIC_TRACK_IDS=<id,...> \
 *     LOAD_SCENARIOS=eval-mixed,browse-stream,upload-burst,rate-limit npx tsx load-tests/run.ts
 *
 * That stack must run with TRUSTED_PROXIES=127.0.0.1 (each iteration then looks like a new
 * client, so the traffic scenarios are not throttled) and RATE_LIMITS=on for rate-limit; a
 * short probe checks both first (preflight.ts).
 * LOAD_SCENARIOS=soak LOAD_SECONDS=1800 is the soak (samples every LOAD_SAMPLE_SECONDS, 60).
 */
import { assertTarget } from './lib/http.js';
import { failuresOf, formatResult, type ScenarioResult } from './lib/report.js';
import { browseStream } from './scenarios/browse-stream.js';
import { evalMixed } from './scenarios/eval-mixed.js';
import { loadOptions } from './scenarios/options.js';
import { rateLimits, SEED_SCOPES } from './scenarios/rate-limit.js';
import { soak } from './scenarios/soak.js';
import { preflight, reachable } from './preflight.js';
import { startOwnStack } from './stack.js';
import { uploadBurst } from './scenarios/upload-burst.js';

export const SCENARIOS = ['eval-mixed', 'browse-stream', 'upload-burst', 'rate-limit', 'soak'] as const;

export async function runScenarios(
  env: NodeJS.ProcessEnv,
  print: (text: string) => void,
): Promise<{ results: ScenarioResult[]; failed: number }> {
  const evalUrl = env.EVAL_URL ?? 'http://127.0.0.1:8080';
  const musicUrl = env.MUSIC_URL ?? 'http://127.0.0.1:8081';
  for (const url of [evalUrl, musicUrl]) assertTarget(url, env);
  const names = scenarioNames(env);
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

/** The scenarios `env` asks for (LOAD_SCENARIOS), checked against the known names. */
function scenarioNames(env: NodeJS.ProcessEnv): string[] {
  const names = (env.LOAD_SCENARIOS ?? 'eval-mixed,browse-stream,upload-burst,rate-limit')
    .split(',')
    .map((s) => s.trim());
  const unknown = names.filter((n) => !(SCENARIOS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
  return names;
}

/** `make load`: its own stack unless EVAL_URL or MUSIC_URL names one, which is probed first. */
export async function main(env: NodeJS.ProcessEnv, print: (text: string) => void): Promise<number> {
  const names = scenarioNames(env);
  if (env.EVAL_URL || env.MUSIC_URL) {
    const refusal = await preflight(env, names);
    if (refusal) throw new Error(refusal);
    return (await runScenarios(env, print)).failed > 0 ? 1 : 0;
  }
  const stack = await startOwnStack(print);
  try {
    const { failed } = await runScenarios(
      {
        ...env,
        EVAL_URL: stack.evalUrl,
        MUSIC_URL: stack.musicUrl,
        MUSIC_TRACK_IDS: stack.trackIds.join(','),
      },
      print,
    );
    return failed > 0 ? 1 : 0;
  } finally {
    await stack.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exitCode = await main(process.env, (t) => process.stdout.write(t));
  } catch (err) {
    process.stderr.write(`load: ${(err as Error).message}\n`);
    process.exitCode = 2;
  }
}
