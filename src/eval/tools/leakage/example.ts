import type { LeakageRequest } from './schema.js';

/**
 * Six exam items against four exposure rows, one per outcome: q-001 leaked by identity, q-002
 * by normalised content (case, spacing, punctuation), q-003 by behaviour (`is_connected and
 * is_tree` vs `is_tree and is_connected`), q-004 reworded (review, not quarantine), q-005 and
 * q-006 clean.
 */
export const leakageExample: LeakageRequest = {
  exam: [
    { item_id: 'q-001', prompt: 'What is the chromatic number of the Petersen graph?', domain: 'colouring' },
    {
      item_id: 'q-002',
      prompt: 'Prove that every tree with n vertices has exactly n - 1 edges.',
      domain: 'trees',
    },
    { item_id: 'q-003', expression: 'is_connected and is_tree', domain: 'trees' },
    {
      item_id: 'q-004',
      prompt:
        'A cubic graph has 10 vertices and 15 edges. Show that it contains a cycle of length at most 5 and determine its girth.',
      domain: 'cycles',
    },
    {
      item_id: 'q-005',
      prompt: 'How many spanning trees does the complete graph on 5 vertices have?',
      domain: 'trees',
    },
    { item_id: 'q-006', expression: 'max_degree <= 2 and is_connected', domain: 'paths' },
  ],
  exposure: [
    { id: 'q-001', source: 'vendor-eval-2025/manifest.jsonl' },
    { content: 'prove that EVERY tree with  n vertices has exactly n-1 edges', source: 'forum-dump/2024-11' },
    { expression: 'is_tree and is_connected', path: 'training/dsl-claims.txt' },
    {
      prompt:
        'Cubic graph with 10 vertices and 15 edges: show it contains a cycle of length at most 5, then find the girth.',
      source: 'blog/graph-puzzles',
    },
  ],
  enable_behavioral_fingerprint: true,
  enable_text_similarity: true,
  fingerprint_max_n: 4,
  similarity_threshold: 0.6,
};
