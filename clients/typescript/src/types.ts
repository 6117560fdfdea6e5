/** Names for the generated OpenAPI types (src/generated/openapi.ts) this package uses. */
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Receipt = Schemas['Receipt'];
export type Problem = Schemas['Problem'];
export type BatchLine = Schemas['BatchLine'];
export type BatchResult = Schemas['BatchResult'];

export type { ToolId, ToolRequests } from './generated/tools.js';
