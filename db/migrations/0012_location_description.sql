-- Decision 040: a location has a description (the previous admin panel sends one; the desk's form edits it).
ALTER TABLE "location" ADD COLUMN "description" text;