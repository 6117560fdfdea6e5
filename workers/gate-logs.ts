/** Piscina task file of the logs gate: adapts a pool message to `runGateLogsTask`; nothing else lives here. */
import {
  runGateLogsTask,
  type GateLogsResult,
  type GateLogsTask,
} from '../src/eval/harness-logs/logs-gate-task.js';

export default function runGateLogs(task: GateLogsTask): Promise<GateLogsResult> {
  return runGateLogsTask(task);
}
