#!/bin/sh
# The backup container's schedule: every night the database dump (kept 30 days); on Sundays
# also the object-store archive (kept 4 weeks). `ops backup` applies the retention itself.
# On a host with cron or systemd, use docker/ops/crontab or the .timer units instead.
set -eu
while :; do
  node dist/src/main/cli.js ops backup --what db --dir "$BACKUP_DIR" || echo "backup: database dump failed" >&2
  if [ "$(date -u +%u)" = 7 ]; then
    node dist/src/main/cli.js ops backup --what objects --dir "$BACKUP_DIR" || echo "backup: object archive failed" >&2
  fi
  # Next run at 02:30 UTC tomorrow (RPO 24 h).
  now=$(date -u +%s)
  next=$(( (now / 86400 + 1) * 86400 + 9000 ))
  sleep $(( next - now ))
done
