#!/bin/sh
# The backup container's schedule: a database dump at start, then every night at 02:30 UTC
# (kept 30 days); on Sundays, and at start when there is none, the object-store archive (kept 4 weeks).
# `ops backup` applies the retention and copies each file off the host when BACKUP_OFFSITE_* is
# set. A failure is printed here and, above all, seen by `ops check` (this container's
# healthcheck): the last good backup grows older than the 24 h RPO and the check fails.
# On a host with cron or systemd, use docker/ops/crontab or the .timer units instead.
# test/production-backup.test.ts runs this loop as a non-root user.
set -u
: "${BACKUP_DIR:?set BACKUP_DIR}"
backup() {
  node dist/src/main/cli.js ops backup --what "$1" --dir "$BACKUP_DIR" ||
    echo "backup: the $1 backup FAILED (ops check reports the age of the last good one)" >&2
}
backup db
ls "$BACKUP_DIR"/objects-*.tar.gz >/dev/null 2>&1 || backup objects
while :; do
  # Next 02:30 UTC: today's if still ahead, else tomorrow's (at most 24 h apart: the RPO).
  now=$(date -u +%s)
  next=$(( now / 86400 * 86400 + 9000 ))
  [ "$next" -gt "$now" ] || next=$(( next + 86400 ))
  echo "backup: next run at $(date -u -d "@$next" +%Y-%m-%dT%H:%M:%SZ)"
  sleep $(( next - now ))
  backup db
  if [ "$(date -u +%u)" = 7 ]; then backup objects; fi
done
