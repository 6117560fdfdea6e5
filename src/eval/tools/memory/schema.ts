import { Type, type Static } from 'typebox';

export const MAX_MEMORIES = 1000;
export const MAX_ENTITIES = 100;

const EntityList = (description: string) =>
  Type.Array(Type.String(), { maxItems: MAX_ENTITIES, description });

export const MemoryRecord = Type.Object(
  {
    content: Type.String({ minLength: 1 }),
    entities: Type.Optional(EntityList('Entities the memory is about (max 100)')),
    confidence: Type.Number({ minimum: 0, maximum: 1, default: 0.8 }),
    age: Type.Integer({ minimum: 0, default: 0, description: 'Steps since the memory was last used' }),
    use_count: Type.Integer({ minimum: 0, default: 0 }),
    kind: Type.String({
      default: 'episodic',
      description:
        'episodic, semantic, procedural, preference, reflection or summary; others get a default weight',
    }),
    source: Type.String({ default: 'uploaded' }),
  },
  { additionalProperties: false },
);

export const MemoryRequest = Type.Object(
  {
    objective: Type.String({ minLength: 1 }),
    memories: Type.Array(MemoryRecord, { minItems: 1, maxItems: MAX_MEMORIES }),
    context_entities: Type.Optional(EntityList('Entities already active in context (max 100)')),
    objective_entities: Type.Optional(
      EntityList('Explicit entities of the objective, for when its text does not name them (max 100)'),
    ),
    current_step: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Caps each memory age: a memory cannot be older than the session',
      }),
    ),
    question_kind: Type.String({
      default: 'generic',
      description: 'generic, factual, procedural, temporal, causal or preference (docs/memory-ranking.md)',
    }),
    token_budget: Type.Integer({ minimum: 1, maximum: 10000, default: 90 }),
  },
  { additionalProperties: false },
);

export type MemoryRequest = Static<typeof MemoryRequest>;
export type MemoryRecord = Static<typeof MemoryRecord>;
