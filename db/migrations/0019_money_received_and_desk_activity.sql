-- Money received, and where staff actions come from.
-- purchase.paid_at: when a purchase was first paid or granted; caps count paid purchases for good, and only
-- paid purchases are sales, refundable or cash. paid_with: an 'Efectivo' order collected as a bank transfer is
-- not drawer cash. limit_released_at: an admin gave the purchase's use of its caps back.
-- audit_log.desk_id / occurred_at: which desk did it and when, on the desk's clock (created_at: when it arrived).
ALTER TABLE "purchase" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "paid_with" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "limit_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "desk_id" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "occurred_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "purchase_paid_at_idx" ON "purchase" USING btree ("paid_at");--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_paid_with_check" CHECK ("purchase"."paid_with" is null or "purchase"."paid_with" in ('cash', 'transfer'));
--> statement-breakpoint
-- What was paid before this column existed: the first charge's invoice, else the credits the payment granted,
-- else a purchase still counted as paid (active, completed) or given at the desk (provider 'admin' grants at once).
UPDATE "purchase" p SET "paid_at" = coalesce(
  (SELECT min(i."paid_at") FROM "invoice" i WHERE i."purchase_id" = p."purchase_id" AND i."status" = 'completed'),
  (SELECT min(a."created_at") FROM "available_classes" a WHERE a."purchase_id" = p."purchase_id"),
  CASE WHEN p."status" IN ('active', 'completed') OR p."provider" = 'admin' THEN p."created_at" END
) WHERE p."paid_at" IS NULL;
