-- Issue 21, decision 058: the customer search folded every candidate row at
-- read time (search_fold over ~60 characters costs about 17 µs a row; a common
-- last name at 200,000 customers rechecked 6,667 rows, 120 ms). The folded text
-- is now stored once per write, one part per line ("name last name", e-mail,
-- phone) so a match stays inside one part, and the trigram index is on it.
-- A desk replica drops the expression (sync/src/client/replica.ts) and keeps
-- the column null: it is hidden from sync and the desk searches in memory.
-- The admin's list is ordered by it too (customer_search_order_idx): names as
-- people read them, 'Álvarez' with the a's rather than after 'Zúñiga'.
DROP INDEX "customer_name_idx";--> statement-breakpoint
DROP INDEX "customer_search_idx";--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_fold("name" || ' ' || "last_name") || chr(10) || search_fold("email") || chr(10) || coalesce("phone", '')) STORED;--> statement-breakpoint
CREATE INDEX "customer_search_order_idx" ON "customer" USING btree ("search_text","customer_id");--> statement-breakpoint
CREATE INDEX "customer_search_idx" ON "customer" USING gin ("search_text" gin_trgm_ops);