-- Notes and alerts on a customer, written by staff; replicated to the desks with the change-log triggers of
-- 0005_sync_triggers.sql, so the card and the scan show them offline.
CREATE TABLE "customer_note" (
	"customer_note_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_note_customer_note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_note_kind_check" CHECK ("customer_note"."kind" in ('note', 'alert', 'health')),
	CONSTRAINT "customer_note_body_check" CHECK (length("customer_note"."body") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "customer_note" ADD CONSTRAINT "customer_note_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_note" ADD CONSTRAINT "customer_note_created_by_customer_customer_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_note_customer_id_idx" ON "customer_note" USING btree ("customer_id");--> statement-breakpoint
CREATE TRIGGER customer_note_sync_log AFTER INSERT OR DELETE ON "customer_note" FOR EACH ROW EXECUTE FUNCTION sync_log_change('customer_note_id');
--> statement-breakpoint
CREATE TRIGGER customer_note_sync_log_update AFTER UPDATE ON "customer_note" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('customer_note_id');
