/** Errors of the job administration (services/job-admin-service.ts). */
import { AppError, pointer } from '../../core/errors.js';
import { QUEUE_NAMES } from '../jobs/queues.js';

export const unknownQueue = (queue: string): AppError =>
  new AppError(
    'invalid_input',
    `Unknown queue ${JSON.stringify(queue)}; use one of ${QUEUE_NAMES.join(', ')}.`,
    {
      errors: [{ path: pointer('queue'), message: `must be one of ${QUEUE_NAMES.join(', ')}` }],
    },
  );
