-- An uploaded original's type is what ffprobe found in it (src/music/services/stored-media.ts),
-- never the client's declaration: rows stored before that rule get their type from their probe.
UPDATE "assets" SET "content_type" = CASE "probe"->>'format'
    WHEN 'mp3' THEN 'audio/mpeg'
    WHEN 'flac' THEN 'audio/flac'
    WHEN 'wav' THEN 'audio/wav'
    WHEN 'ogg' THEN 'audio/ogg'
    WHEN 'mov' THEN 'audio/mp4'
    WHEN 'aac' THEN 'audio/aac'
    WHEN 'aiff' THEN 'audio/aiff'
    ELSE 'application/octet-stream'
  END
WHERE "status" = 'uploaded';
