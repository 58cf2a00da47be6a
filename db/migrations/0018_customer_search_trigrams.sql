-- Issue 21, decision 062.
-- 1. A search for a piece of an e-mail ('ana.lopez@gm') shares trigrams with
--    most of the studio ('@gm', 'gma', 'com'). pg_trgm looks every trigram of
--    the text up in customer_search_idx, and those lists are as long as the
--    customer table: at 200,000 customers 'crece-2053@' read 240 blocks of the
--    index, '2053@' 8. ANALYZE now keeps, beside the table's statistics, the
--    share of customers whose search text has each of its most common
--    trigrams; the server reads it (search-trigrams.ts) and looks up the piece
--    of the text that leaves the common trigrams out. It is taken once here so
--    an existing studio has it from the start; autovacuum keeps it current.
-- 2. customer_search_idx keeps no pending list (fastupdate): new and changed
--    customers went to a list that every search read whole until autovacuum
--    merged it, up to 4 MB. The index is altered, not rebuilt, and what the
--    list held is merged now.
ALTER INDEX IF EXISTS "customer_search_idx" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list(to_regclass('customer_search_idx')) WHERE to_regclass('customer_search_idx') IS NOT NULL;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "customer_search_trigrams" ON (show_trgm("search_text")) FROM "customer";--> statement-breakpoint
ANALYZE "customer";
