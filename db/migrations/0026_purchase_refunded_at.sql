-- When a purchase's money went back, on the purchase itself: the desk's replica holds purchases but not invoices,
-- and read 'Eliminada' for a refund. Purchases refunded before this migration take their refund invoice's time.
ALTER TABLE "purchase" ADD COLUMN "refunded_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "purchase" p SET "refunded_at" = i."paid_at" FROM "invoice" i WHERE i."purchase_id" = p."purchase_id" AND i."status" = 'refunded';
