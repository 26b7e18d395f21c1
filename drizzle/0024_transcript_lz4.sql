-- A call's transcript is rewritten with each of its chunks, a few kilobytes each time, and PostgreSQL
-- compresses it on every write: pglz took 46 µs of the server's CPU an update of a 2,000-character
-- transcript, lz4 19. The embedded PGlite is built without lz4 and keeps pglz.
DO $$ BEGIN
  ALTER TABLE "calls" ALTER COLUMN "transcript" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;
