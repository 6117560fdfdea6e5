import { Type, type Static } from 'typebox';

export const CounterexampleRequest = Type.Object(
  {
    expression: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'Graph predicate in the DSL (docs/dsl-grammar.md). `A => B` claims B on every graph satisfying A; a bare predicate P claims that greedy colouring is optimal on every graph in P',
    }),
    ns: Type.Array(Type.Integer({ minimum: 4, maximum: 12 }), {
      minItems: 1,
      maxItems: 5,
      default: [8, 9, 10, 11],
      description: 'Graph sizes searched: restart i uses ns[i mod len(ns)] vertices',
    }),
    restarts: Type.Integer({ minimum: 1, maximum: 6, default: 4, description: 'Annealing restarts' }),
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
      maximum: 1500,
      default: 800,
      description: 'Annealing steps per restart',
    }),
  },
  { additionalProperties: false },
);

export type CounterexampleRequest = Static<typeof CounterexampleRequest>;
