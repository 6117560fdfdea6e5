/** Report card: start a session, answer the six items, see the signed grade. */
import { h, clear } from '../../shared/dom';
import { ProblemError, requestJson } from '../../shared/http';
import { verifyJws, type PublishedKey } from './signature';
import { witnessFigure, type WitnessGraph } from './certificates/counterexample';

interface SessionItem {
  item_id: string;
  heuristic: string;
  claim: string;
  class_predicate: string;
  task: string;
  forbidden_features: string[];
}
interface Session {
  session_id: string;
  expires_at: string;
  items: SessionItem[];
}
interface Grade {
  item_id: string;
  passed: boolean;
  message: string;
  retention: number;
  /** The graph the repair still admits and the heuristic gets wrong, with both colourings or sets. */
  counterexample?: WitnessGraph & { heuristic_value: number; optimum: number };
}
interface Graded {
  result: { score: { passed: number; total: number; fraction: number }; items: Grade[] };
  signature: { alg: string; kid: string; jws: string };
}

function problemText(err: unknown): string {
  if (err instanceof ProblemError) {
    const p = err.problem;
    const fields = (p.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
    return `${p.status} ${p.title}: ${p.detail ?? ''}${fields ? ` (${fields})` : ''}${err.retryAfter && !/retry/i.test(p.detail ?? '') ? ` Retry after ${err.retryAfter} s.` : ''}`;
  }
  return (err as Error).message;
}

export function renderReportCard(app: HTMLElement): void {
  document.title = 'Report card · Verifier workbench';
  const challenge = h('input', { id: 'challenge', type: 'text', maxlength: 128, autocomplete: 'off' });
  const sessionArea = h('div', { 'aria-live': 'polite' });
  const start = async (): Promise<void> => {
    clear(sessionArea, h('p', { class: 'muted' }, 'Starting…'));
    try {
      const body = challenge.value ? { challenge: challenge.value } : {};
      renderSession(
        sessionArea,
        await requestJson<Session>('/api/report-card/start', { method: 'POST', body: JSON.stringify(body) }),
      );
    } catch (err) {
      clear(sessionArea, h('p', { class: 'error', role: 'alert' }, problemText(err)));
    }
  };
  clear(
    app,
    h('h1', {}, 'Report card'),
    h(
      'p',
      { class: 'lead' },
      'Six false conjectures about two graph heuristics. Repair each with a narrower predicate; the grade comes back signed.',
    ),
    h(
      'form',
      { class: 'row', onsubmit: (e: Event) => (e.preventDefault(), void start()) },
      h('label', { for: 'challenge' }, 'Challenge (optional, 8–128 characters)'),
      challenge,
      h('button', { type: 'submit', class: 'primary' }, 'Start a session'),
    ),
    sessionArea,
  );
}

function renderSession(area: HTMLElement, session: Session): void {
  const answers = new Map<string, HTMLTextAreaElement>();
  const result = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Submit the answers');
  const form = h(
    'form',
    {},
    h(
      'p',
      {},
      `Session ${session.session_id}, expires ${new Date(session.expires_at).toLocaleTimeString()}.`,
    ),
    session.items.map((item) => {
      const area = h('textarea', {
        id: `answer-${item.item_id}`,
        rows: 2,
        spellcheck: 'false',
        'aria-describedby': `task-${item.item_id}`,
      });
      area.value = item.class_predicate;
      answers.set(item.item_id, area);
      return h(
        'fieldset',
        { class: 'rc-item', 'data-item': item.item_id },
        h('legend', {}, `${item.item_id}: ${item.heuristic.replace('_', ' ')}`),
        h('p', {}, item.claim),
        h(
          'p',
          { id: `task-${item.item_id}`, class: 'muted' },
          `Class: ${item.class_predicate}. Not allowed: ${item.forbidden_features.join(', ')}.`,
        ),
        h('label', { for: `answer-${item.item_id}` }, `Answer for ${item.item_id}`),
        area,
      );
    }),
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit.disabled = true;
    void (async () => {
      clear(result, h('p', { class: 'muted' }, 'Grading…'));
      try {
        const graded = await requestJson<Graded>('/api/report-card/submit', {
          method: 'POST',
          body: JSON.stringify({
            session_id: session.session_id,
            answers: Object.fromEntries([...answers].map(([id, a]) => [id, a.value])),
          }),
        });
        await renderGrade(result, graded);
      } catch (err) {
        submit.disabled = false;
        clear(result, h('p', { class: 'error', role: 'alert' }, problemText(err)));
      }
    })();
  });
  clear(area, form, result);
}

async function renderGrade(area: HTMLElement, graded: Graded): Promise<void> {
  const { keys } = await requestJson<{ keys: PublishedKey[] }>('/.well-known/receipt-keys.json');
  const check = await verifyJws(graded.signature.jws, graded.signature.kid, graded.result, keys);
  const score = graded.result.score;
  clear(
    area,
    h('h2', {}, 'Grade'),
    h('p', { class: 'verdict', 'data-testid': 'grade' }, `${score.passed} of ${score.total} repaired`),
    h(
      'ul',
      { class: 'grades' },
      graded.result.items.map((g) =>
        h(
          'li',
          { class: g.passed ? 'ok' : 'bad', 'data-item': g.item_id },
          h('strong', {}, `${g.passed ? '✓' : '✗'} ${g.item_id}`),
          ` ${g.message}`,
          g.counterexample
            ? h(
                'div',
                { class: 'rc-counterexample', 'data-testid': `counterexample-${g.item_id}` },
                h(
                  'p',
                  {},
                  `Counterexample: the heuristic gives ${g.counterexample.heuristic_value}, the optimum is ${g.counterexample.optimum}.`,
                ),
                witnessFigure(g.counterexample),
              )
            : null,
        ),
      ),
    ),
    h(
      'p',
      { class: check.ok ? 'verdict good' : 'verdict bad', 'data-testid': 'signature-check' },
      check.ok
        ? `Signature verified in this browser: ${check.reason}`
        : `Signature NOT verified: ${check.reason}`,
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Signature (compact JWS)'),
      h('code', { class: 'hash' }, graded.signature.jws),
    ),
  );
}
