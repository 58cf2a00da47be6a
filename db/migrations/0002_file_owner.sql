ALTER TABLE "file" ADD COLUMN "customer_id" integer;--> statement-breakpoint
ALTER TABLE "file" ADD CONSTRAINT "file_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_customer_id_idx" ON "file" USING btree ("customer_id");