/** The `payments` queue: applies one recorded provider event (src/music/services/payment-events.ts). */
import type { JobProcessor } from './job-processor.js';
import type { ProcessorDeps } from './deps.js';

export function paymentsProcessor(deps: Pick<ProcessorDeps, 'payments' | 'log'>): JobProcessor<'payments'> {
  return async (job) => {
    const result = await deps.payments.process(job.data.eventId);
    if (result.state === 'unknown')
      deps.log.warn({ eventId: job.data.eventId }, 'payment event not recorded');
    return result;
  };
}
