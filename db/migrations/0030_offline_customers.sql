-- A customer a desk registered offline: the change keeps the desk's temporary id and the id the server gave it (or the
-- existing customer whose e-mail or phone it was), so the desk's later changes that name the temporary id reach her.
ALTER TABLE "sync_mutation" ADD COLUMN "temp_id" integer;--> statement-breakpoint
ALTER TABLE "sync_mutation" ADD COLUMN "created_id" integer;--> statement-breakpoint
ALTER TABLE "sync_mutation" ADD COLUMN "notice" text;--> statement-breakpoint
CREATE INDEX "sync_mutation_temp_id_idx" ON "sync_mutation" USING btree ("client_id","temp_id") WHERE "sync_mutation"."temp_id" is not null;