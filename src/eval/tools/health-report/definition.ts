import { defineTool } from '../../tool-definition.js';
import { healthReportExample } from './example.js';
import { runHealthReport } from './health-report.js';
import { HealthReportRequest } from './schema.js';
import { healthReportWorkload } from './workload.js';

export const healthReportTool = defineTool<HealthReportRequest>({
  id: 'health',
  operationId: 'health',
  name: 'Benchmark health report',
  method: 'POST',
  path: '/api/health-report',
  promise: 'Finds discriminating, saturated, too-hard and flaky items, frontier gaps and a readiness index',
  schema: HealthReportRequest,
  example: healthReportExample,
  workload: healthReportWorkload,
  run: runHealthReport,
  costMsPerKiB: 0.6,
});
