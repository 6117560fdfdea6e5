/** Names for the generated OpenAPI types (src/generated/openapi.ts) this package uses. */
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Receipt = Schemas['Receipt'];
export type Problem = Schemas['Problem'];
export type BatchLine = Schemas['BatchLine'];
export type BatchResult = Schemas['BatchResult'];

/** Request body of each tool, by catalog id. */
export interface ToolRequests {
  counterexample: Schemas['counterexampleRequest'];
  gate: Schemas['gateRequest'];
  health: Schemas['healthRequest'];
  inspector: Schemas['inspectorRequest'];
  leakage: Schemas['leakageRequest'];
  memory: Schemas['memoryRequest'];
  replay: Schemas['replayRequest'];
  safepatch: Schemas['safepatchRequest'];
}

export type ToolId = keyof ToolRequests;
