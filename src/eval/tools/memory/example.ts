import type { MemoryRequest } from './schema.js';

/** A billing incident: relevance promotes the invoice memories salience ranks low. */
export const memoryExample: MemoryRequest = {
  objective: 'Why did the Acme Billing Service reject invoice INV-204 yesterday?',
  memories: [
    {
      content: 'Acme Billing Service rejects invoices whose currency differs from the account currency.',
      entities: ['Acme Billing Service'],
      confidence: 0.9,
      age: 40,
      use_count: 1,
      kind: 'semantic',
      source: 'uploaded',
    },
    {
      content: 'Invoice INV-204 was issued in EUR for an account billed in USD.',
      entities: ['INV-204'],
      confidence: 0.85,
      age: 3,
      use_count: 0,
      kind: 'episodic',
      source: 'uploaded',
    },
    {
      content: 'The user prefers short answers with a link to the runbook.',
      entities: ['user'],
      confidence: 0.95,
      age: 1,
      use_count: 12,
      kind: 'preference',
      source: 'uploaded',
    },
    {
      content: 'Deploys happen on Tuesdays after the change review.',
      entities: ['deploys'],
      confidence: 0.8,
      age: 5,
      use_count: 6,
      kind: 'procedural',
      source: 'uploaded',
    },
  ],
  context_entities: ['user'],
  objective_entities: ['Acme Billing Service'],
  current_step: 30,
  question_kind: 'causal',
  token_budget: 30,
};
