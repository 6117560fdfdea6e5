-- An import that reads its files in place (the --in-place option): nothing is copied into the
-- originals store and its assets name the files themselves (docs/library-import.md). Kept per
-- import so that a resume reads the same way.
ALTER TABLE "library_imports" ADD COLUMN "in_place" BOOLEAN NOT NULL DEFAULT false;
