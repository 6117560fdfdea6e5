import { Type, type Static } from 'typebox';
import { GateRequest } from '../gate/schema.js';
import { leakageFields } from '../leakage/schema.js';

/** Leakage's fields plus the gate's (cohort maps, names, domains, policy, retained probe). */
export const InspectRequest = Type.Object(
  {
    ...leakageFields,
    ...GateRequest.properties,
  },
  { additionalProperties: false },
);

export type InspectRequest = Static<typeof InspectRequest>;
