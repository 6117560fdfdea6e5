-- The inode a library file had when last read: a file imported in place is served only while it is still that file.
ALTER TABLE "library_files" ADD COLUMN "inode" BIGINT;
