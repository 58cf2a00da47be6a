-- A required page has versions: each acceptance records the one accepted, and a new version is pending for everyone
-- (decision 122). Every page and acceptance so far is version 1.
DROP INDEX "accepted_page_page_customer_key";--> statement-breakpoint
ALTER TABLE "accepted_page" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "page" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "accepted_page_page_customer_version_key" ON "accepted_page" USING btree ("page_id","customer_id","version");