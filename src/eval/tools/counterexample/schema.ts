import { Type, type Static } from 'typebox';

export const MAX_EXPRESSION_CHARS = 500;
export const MAX_SIZES = 5;
export const MAX_N = 12;
export const MAX_RESTARTS = 6;
export const MAX_STEPS = 1500;

export const CounterexampleRequest = Type.Object(
  {
    expression: Type.String({
      minLength: 1,
      maxLength: MAX_EXPRESSION_CHARS,
      description:
        'Graph predicate in the DSL (docs/dsl-grammar.md). `A => B` claims B on every graph satisfying A; a bare predicate P claims that greedy colouring is optimal on every graph in P',
    }),
    ns: Type.Array(Type.Integer({ minimum: 4, maximum: MAX_N }), {
      minItems: 1,
      maxItems: MAX_SIZES,
      default: [8, 9, 10, 11],
      description: 'Graph sizes searched: restart i uses ns[i mod len(ns)] vertices',
    }),
    restarts: Type.Integer({
      minimum: 1,
      maximum: MAX_RESTARTS,
      default: 4,
      description: 'Annealing restarts',
    }),
    seed: Type.Integer({
      // Safe integers only: beyond 2^53 - 1 a JSON number no longer names one integer
      // (2^53 + 1 parses as 2^53), and distinct seeds would collapse into one stream.
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description:
        'Seed of the deterministic generator: a safe integer, -(2^53 - 1) to 2^53 - 1; distinct seeds give distinct generator states',
    }),
    steps: Type.Integer({
      minimum: 50,
      maximum: MAX_STEPS,
      default: 800,
      description: 'Annealing steps per restart',
    }),
  },
  { additionalProperties: false },
);

export type CounterexampleRequest = Static<typeof CounterexampleRequest>;
