/** The worker's scheduled housekeeping (MaintenanceTasks) done by the music domain's own jobs. */
import type { MusicConfig } from './config.js';
import type { MusicConnections } from './repositories/connections.js';
import { runAnalyticsRollup, runUploadCleanup } from './domain-jobs.js';
import type { MaintenanceTasks } from './jobs/registry.js';

export function domainMaintenance(config: MusicConfig, connections: MusicConnections): MaintenanceTasks {
  return {
    rollupAnalytics: async (nowMs) => {
      const r = await runAnalyticsRollup(config, connections, { nowMs });
      return {
        statsRows: r.statsRows,
        pruned: r.pruned,
        trendingDay: r.trending.day,
        trendingWeek: r.trending.week,
      };
    },
    cleanupUploads: (nowMs) => runUploadCleanup(config, connections, { nowMs }),
  };
}
