-- Issue 21, decision 061: a search for a common name walks the live customers
-- in name order until its page is full; at 200,000 customers 'mendoza' passed
-- 5,353 of them and read a heap row for each (5,441 blocks, 5 ms) to see
-- whether it was deleted. With only the live customers in the index, the walk
-- filters the index's own entries (an index-only scan: 57 blocks, 0.8 ms) and
-- reads the rows of its page only. Every list and search asks for live
-- customers alone. A desk replica drops this index (ensureSearchIndexes).
DROP INDEX "customer_search_order_idx";--> statement-breakpoint
CREATE INDEX "customer_search_order_idx" ON "customer" USING btree ("search_text","customer_id") WHERE "customer"."deleted_at" is null;