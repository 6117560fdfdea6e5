import type { SafepatchRequest } from './schema.js';

/** Bumps a version in one section and rewords a sentence in another; both checks pass. */
export const safepatchExample: SafepatchRequest = {
  document: [
    '# Acme Billing Service',
    '',
    'Owner: payments team. Tracks [REQ-12].',
    '',
    '## Install',
    '',
    'Install v2.3.1 with `npm install acme-billing`.',
    '',
    '```sh',
    '# not a heading: a shell comment inside a fenced block',
    'npm install acme-billing',
    '```',
    '',
    '## Limits',
    '',
    'Requests are limited to 100 per minute.',
    '',
  ].join('\n'),
  operations: [
    {
      target_heading: 'Install',
      find: 'Install v2.3.1 with',
      replace: 'Install v2.4.0 with',
      allow_token_changes: ['v2.3.1'],
    },
    {
      target_heading: 'Limits',
      find: 'Requests are limited',
      replace: 'API requests are limited',
    },
  ],
  reason: 'release 2.4.0',
};
