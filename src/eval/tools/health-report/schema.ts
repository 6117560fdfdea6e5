import { Type, type Static } from 'typebox';

export const MAX_HISTORY = 5000;
export const MAX_ITEMS = 5000;

export const HistoryRow = Type.Object(
  {
    item_id: Type.String({ minLength: 1 }),
    system: Type.String({ minLength: 1, description: 'The system (model, agent, configuration) that ran' }),
    passed: Type.Boolean(),
    domain: Type.Optional(Type.String()),
  },
  {
    additionalProperties: true,
    description: 'One run of one system on one item; rows are read in order (oldest first)',
  },
);

export const ItemDefinition = Type.Object(
  {
    item_id: Type.String({ minLength: 1 }),
    domain: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'An item of the benchmark, measured or not' },
);

export const HealthReportRequest = Type.Object(
  {
    history: Type.Array(HistoryRow, {
      minItems: 1,
      maxItems: MAX_HISTORY,
      description: 'Run results in chronological order; 1 to 5000 rows',
    }),
    items: Type.Optional(
      Type.Array(ItemDefinition, {
        maxItems: MAX_ITEMS,
        description: 'Every item of the benchmark, so items without history show as unmeasured; 0 to 5000',
      }),
    ),
  },
  { additionalProperties: false },
);

export type HealthReportRequest = Static<typeof HealthReportRequest>;
export type HistoryRow = Static<typeof HistoryRow>;
export type ItemDefinition = Static<typeof ItemDefinition>;
