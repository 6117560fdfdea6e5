import { Type, type Static } from 'typebox';

export const MAX_COHORT = 5000;

// Maps of item_id -> value are written with `additionalProperties` rather than TypeBox's
// Record (a `patternProperties` of "^(.*)$"), which makes ajv run a regular expression on
// each of up to 5000 keys; the accepted documents are the same.
export const CohortMap = Type.Unsafe<Record<string, boolean>>({
  type: 'object',
  additionalProperties: { type: 'boolean' },
  minProperties: 1,
  maxProperties: MAX_COHORT,
  description: 'item_id -> pass (true) or fail (false); 1 to 5000 entries',
});

export const DomainMap = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string' },
  maxProperties: MAX_COHORT,
  description: 'Optional domain label per item_id',
});

export const Policy = Type.Object(
  {
    confidence_alpha: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.05,
      description: 'Significance level of the one-sided sign test; 1 turns the test off',
    }),
    max_regressions: Type.Integer({ minimum: 0, default: 0 }),
    min_gains: Type.Integer({ minimum: 0, default: 1 }),
    require_retained_probe: Type.Boolean({ default: false }),
  },
  { additionalProperties: false, default: {} },
);

export const RetainedProbe = Type.Object(
  {
    base_verified: Type.Integer({ minimum: 0 }),
    candidate_verified: Type.Integer({ minimum: 0 }),
    items: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, description: 'Retained-capability probe: verified counts out of `items`' },
);

export const GateRequest = Type.Object(
  {
    baseline: CohortMap,
    candidate: CohortMap,
    baseline_name: Type.String({ default: 'baseline' }),
    candidate_name: Type.String({ default: 'candidate' }),
    domains: Type.Optional(DomainMap),
    policy: Policy,
    retained_probe: Type.Optional(RetainedProbe),
  },
  { additionalProperties: false },
);

export type GateRequest = Static<typeof GateRequest>;
export type GatePolicy = Static<typeof Policy>;
export type GateProbe = Static<typeof RetainedProbe>;
