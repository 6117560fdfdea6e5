#!/bin/sh
# Nightly pg_dump kept 30 days; weekly object-store archive kept 4 weeks (RPO 24 h).
set -eu
mkdir -p "$BACKUP_DIR/db" "$BACKUP_DIR/objects"
while :; do
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  pg_dump -h postgres -U music -Fc music > "$BACKUP_DIR/db/music-$stamp.dump.tmp" \
    && mv "$BACKUP_DIR/db/music-$stamp.dump.tmp" "$BACKUP_DIR/db/music-$stamp.dump"
  find "$BACKUP_DIR/db" -name 'music-*.dump' -mtime +30 -delete
  if [ "$(date -u +%u)" = 7 ]; then
    tar -C /minio-data -czf "$BACKUP_DIR/objects/objects-$stamp.tar.gz.tmp" . \
      && mv "$BACKUP_DIR/objects/objects-$stamp.tar.gz.tmp" "$BACKUP_DIR/objects/objects-$stamp.tar.gz"
    find "$BACKUP_DIR/objects" -name 'objects-*.tar.gz' -mtime +28 -delete
  fi
  sleep 86400
done
