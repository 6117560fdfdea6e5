/** Eval mixed traffic: every catalog tool's example in rotation, with catalog and health reads between. */
import { runFor, timed } from '../lib/http.js';
import { newTally, type ScenarioResult } from '../lib/report.js';
import type { LoadOptions } from './options.js';

export async function evalMixed(base: string, options: LoadOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const [tools, reads] = [newTally(), newTally()];
  const failures: string[] = [];
  const catalog = (await (await fetch(`${base}/api/catalog`)).json()) as {
    tools: { id: string; endpoint: string }[];
  };
  const { examples } = (await (await fetch(`${base}/api/examples`)).json()) as {
    examples: Record<string, unknown>;
  };
  let i = 0;
  await runFor(options, async () => {
    const tool = catalog.tools[i++ % catalog.tools.length]!;
    const answer = await timed(tools, `${base}${tool.endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': options.clientAddress() },
      body: JSON.stringify(examples[tool.id]),
    });
    if (answer && answer.status !== 200 && failures.length < 5)
      failures.push(`${tool.id}: ${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
    if (i % 4 === 0) await timed(reads, `${base}${i % 8 === 0 ? '/api/health' : '/api/catalog'}`);
  });
  return {
    name: 'eval-mixed',
    seconds: (performance.now() - started) / 1000,
    rows: [
      { label: 'tool calls', tally: tools },
      { label: 'catalog/health', tally: reads },
    ],
    failures,
    notes: [`${catalog.tools.length} tools in rotation, ${options.connections} connections`],
  };
}
