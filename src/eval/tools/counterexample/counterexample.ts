/**
 * The counterexample hunter (eval-tools.md, counterexample): seeded simulated annealing over
 * single-edge flips, then a bounded exhaustive check, every witness verified exactly.
 */
import { invalidInput } from '../../../core/errors.js';
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { parseExpression } from '../../dsl/parser.js';
import { DslError } from '../../dsl/errors.js';
import { canonicalForm } from '../../dsl/printer.js';
import type { Expr } from '../../dsl/ast.js';
import { describeClaim, labelSensitive } from './claim.js';
import { exhaustiveBound, exhaustiveBudget, runExhaustive, type ExhaustiveReport } from './exhaustive.js';
import { COOLING, START_TEMPERATURE, type Kernel } from './kernel-types.js';
import { prepareClaim } from './prepare.js';
import { restartState } from './prng.js';
import type { CounterexampleRequest } from './schema.js';
import { verifyWitness, type Witness } from './witness.js';
import { round12 } from '../../math/wilson.js';

interface RestartTrace {
  restart: number;
  n: number;
  best_score: number;
  steps_run: number;
  found: boolean;
}

function parseOrReject(src: string): Expr {
  try {
    return parseExpression(src);
  } catch (err) {
    if (err instanceof DslError)
      throw invalidInput(`The expression is invalid: ${err.message}.`, [
        { path: '/expression', message: `column ${err.column}: ${err.message}` },
      ]);
    throw err;
  }
}

/** `kernel`: the annealing and exhaustive kernel (native or TypeScript; the same outcome). */
export function runCounterexample(request: CounterexampleRequest, kernel: Kernel): ReceiptBody {
  const expr = parseOrReject(request.expression);
  const canonical = canonicalForm(expr);
  const prepared = prepareClaim(expr);
  const claim = prepared.claim;
  const { ns, restarts, steps, seed } = request;

  const trace: RestartTrace[] = [];
  let found: { restart: number; step: number; adj: number[] } | null = null;
  for (let r = 0; r < restarts && !found; r++) {
    const n = ns[r % ns.length]!;
    const out = kernel.anneal(prepared, { n, steps, state: restartState(seed, r) });
    trace.push({
      restart: r,
      n,
      best_score: round12(out.bestScore),
      steps_run: out.stepsRun,
      found: out.found,
    });
    if (out.found) found = { restart: r, step: out.stepsRun, adj: out.adj };
  }
  const annealingSteps = trace.reduce((s, t) => s + t.steps_run, 0);

  const budget = exhaustiveBudget(restarts, steps);
  const maxN = exhaustiveBound(budget);
  const sortedOnly = !labelSensitive(claim);
  let exhaustive: ExhaustiveReport | null = null;
  if (!found) exhaustive = runExhaustive(kernel, prepared, maxN, sortedOnly);

  let witness: Witness | null = null;
  let foundBy: 'annealing' | 'exhaustive' | null = null;
  if (found) {
    witness = verifyWitness(claim, found.adj);
    foundBy = 'annealing';
  } else if (exhaustive?.witness) {
    witness = verifyWitness(claim, exhaustive.witness.adj);
    foundBy = 'exhaustive';
  }
  const falsified = witness !== null;
  const status = falsified ? 'FALSIFIED' : 'NOT_FALSIFIED_WITHIN_BUDGET';

  const items: ItemDecision[] = [];
  for (let r = 0; r < restarts; r++) {
    const t = trace[r];
    const id = `restart-${r}`;
    if (!t) {
      items.push({
        item_id: id,
        decision: 'skipped',
        reasons: [`restart ${found!.restart} already found a counterexample`],
        n: ns[r % ns.length]!,
      });
      continue;
    }
    items.push({
      item_id: id,
      decision: t.found ? 'counterexample_found' : 'none_found',
      reasons: t.found
        ? [`score 0 reached at step ${t.steps_run} of ${steps} on ${t.n} vertices`]
        : [
            `best score ${t.best_score} after ${steps} steps on ${t.n} vertices (0 would be a counterexample)`,
          ],
      n: t.n,
      best_score: t.best_score,
      steps_run: t.steps_run,
    });
  }

  const decisionPath: DecisionStep[] = [
    { rule: 'expression_parsed', outcome: 'pass', detail: `canonical form: ${canonical}` },
    { rule: 'claim', outcome: 'info', detail: describeClaim(claim) },
    {
      rule: 'claim_survives_annealing',
      outcome: found ? 'fail' : 'pass',
      detail: found
        ? `restart ${found.restart} (${trace[found.restart]!.n} vertices) reached a counterexample at step ${found.step}`
        : `${restarts} restart(s) of ${steps} steps on ${ns.join('/')} vertices found no counterexample`,
    },
    exhaustive
      ? {
          rule: 'claim_survives_exhaustive_check',
          outcome: exhaustive.witness ? 'fail' : 'pass',
          detail: exhaustive.witness
            ? `a counterexample on ${exhaustive.witness.n} vertices; none on fewer`
            : `no counterexample on any graph with at most ${exhaustive.maxN} vertices (${exhaustive.graphsVisited} labelled graphs)`,
        }
      : {
          rule: 'claim_survives_exhaustive_check',
          outcome: 'skip',
          detail: 'annealing already found a counterexample',
        },
    witness
      ? {
          rule: 'witness_verified',
          outcome: 'pass',
          detail: `the ${witness.n}-vertex witness ${witness.graph6} was re-checked exactly`,
        }
      : { rule: 'witness_verified', outcome: 'skip', detail: 'no witness' },
  ];

  const exhaustiveResult = exhaustive && {
    max_n: exhaustive.maxN,
    statement: exhaustive.witness
      ? `counterexample on ${exhaustive.witness.n} vertices; no counterexample on any graph with fewer vertices`
      : `no counterexample on any graph with at most ${exhaustive.maxN} vertices`,
    coverage: sortedOnly
      ? 'every labelled graph was enumerated; the claim was evaluated on those whose degrees do not increase with the vertex index, which include a relabelling of every graph, and the claim does not depend on labels'
      : 'the claim was evaluated on every labelled graph (it depends on vertex labels through greedy_colors)',
    labelled_graphs: exhaustive.graphsVisited,
    graphs_evaluated: exhaustive.graphsEvaluated,
    per_n: exhaustive.perN,
  };

  const summary = {
    claim: canonical,
    claim_kind: claim.kind,
    counterexample_found: falsified,
    found_by: foundBy,
    witness_n: witness?.n ?? null,
    witness_graph6: witness?.graph6 ?? null,
    restarts_run: trace.length,
    annealing_steps: annealingSteps,
    exhaustive_max_n: exhaustive && !exhaustive.witness ? exhaustive.maxN : null,
  };

  const result = {
    claim: {
      expression: canonical,
      kind: claim.kind,
      statement: describeClaim(claim),
      ...(claim.kind === 'implication'
        ? { antecedent: canonicalForm(claim.antecedent), consequent: canonicalForm(claim.consequent) }
        : { class: canonicalForm(claim.cls) }),
    },
    budget: {
      ns,
      restarts,
      steps,
      seed,
      start_temperature: START_TEMPERATURE,
      cooling_per_step: COOLING,
      exhaustive_graph_budget: budget,
      exhaustive_max_n: maxN,
    },
    witness: witness && {
      ...witness,
      found_by: foundBy,
      ...(found ? { restart: found.restart, step: found.step } : {}),
    },
    search: { restarts: trace },
    exhaustive: exhaustiveResult,
  };

  const nextAction = falsified
    ? `The claim is false: result.witness (graph6 ${witness!.graph6}) satisfies the ${claim.kind === 'implication' ? 'antecedent and violates the consequent' : 'class and greedy colouring uses more colours than needed'}; narrow the claim or fix it and search again.`
    : `No counterexample found, and none exists on any graph with at most ${maxN} vertices; to search further raise steps or restarts, try other seeds and ns, or prove the claim.`;

  return { status, summary, decision_path: decisionPath, items, result, next_action: nextAction };
}
