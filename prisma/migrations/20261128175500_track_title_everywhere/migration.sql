-- One title everywhere (issue 44): the title of a song is the own title of its track, never the
-- title tag of a version, so a rename shows at once on every list, search and Subsonic answer, and
-- a new version whose file carries another title tag changes nothing. Tags still fill the other
-- fields: a new version inherits the tags it lacks from the shown version (services/track-service.ts).
CREATE OR REPLACE VIEW "subsonic_songs" AS
SELECT t.id, t.owner_user_id, t.visibility, t.created_at,
       CAST(t.title AS TEXT) AS title,
       COALESCE(NULLIF(btrim(v.tag_artist), ''), v.sub_artist) AS artist,
       v.sub_artist AS album_artist, v.sub_album AS album, v.sub_artist_id AS artist_id,
       v.sub_album_id AS album_id, v.tag_genre AS genre, v.tag_year AS year,
       v.tag_track_number AS track_number, v.tag_disc_number AS disc_number,
       v.mb_recording_id, v.mb_album_id, v.mb_album_artist_id,
       v.id AS version_id, v.duration_ms, v.bit_rate, v.sample_rate, v.channels, v.codec,
       v.replay_gain, v.true_peak, v.artwork_key, v.progressive_key, v.hls_key,
       a.id AS asset_id, a.object_key, a.size, a.filename, a.content_type
FROM tracks t
JOIN track_versions v ON v.id = t.current_version_id AND v.status = 'ready'
JOIN assets a ON a.id = v.asset_id;

-- The title order of the search rows follows the new titles.
SELECT "subsonic_refresh_songs"(ARRAY(SELECT id FROM "subsonic_songs"));
