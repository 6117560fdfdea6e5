-- An artist's profile (issue 44): a short bio and a picture (its key in the images store).
ALTER TABLE "users" ADD COLUMN "bio" VARCHAR(2000) NOT NULL DEFAULT '';
ALTER TABLE "users" ADD COLUMN "picture_key" TEXT;
