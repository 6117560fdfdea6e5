import { Type, type Static } from 'typebox';

export const MAX_EVENTS = 5000;
export const MAX_NOTES = 5000;

export const EmulatorEvent = Type.Object(
  {
    kind: Type.String({
      description: 'Event class: control (commands), verifier (ACCEPT / REJECT), model, observation, ...',
    }),
    detail: Type.String({ description: 'Command text for control events, verdict for verifier events' }),
    step: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Emulator step; must increase from event to event' }),
    ),
    source: Type.String({ default: 'native' }),
  },
  { additionalProperties: false },
);

export const ReplayRequest = Type.Object(
  {
    events: Type.Array(EmulatorEvent, { minItems: 1, maxItems: MAX_EVENTS, description: 'In order' }),
    notes: Type.Optional(Type.Array(Type.String(), { maxItems: MAX_NOTES })),
  },
  { additionalProperties: false },
);

export type ReplayRequest = Static<typeof ReplayRequest>;
export type EmulatorEvent = Static<typeof EmulatorEvent>;
