-- Issue 16, decision 018: the desk replicates the pages (documents) and who
-- accepted them, to warn at the counter about required documents a customer
-- has not accepted and to collect the acceptance there (also offline).
-- The same change-log triggers as 0005_sync_triggers.sql.
CREATE TRIGGER page_sync_log AFTER INSERT OR DELETE ON "page" FOR EACH ROW EXECUTE FUNCTION sync_log_change('page_id');
--> statement-breakpoint
CREATE TRIGGER page_sync_log_update AFTER UPDATE ON "page" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('page_id');
--> statement-breakpoint
CREATE TRIGGER accepted_page_sync_log AFTER INSERT OR DELETE ON "accepted_page" FOR EACH ROW EXECUTE FUNCTION sync_log_change('accepted_page_id');
--> statement-breakpoint
CREATE TRIGGER accepted_page_sync_log_update AFTER UPDATE ON "accepted_page" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('accepted_page_id');
--> statement-breakpoint
-- Rows written before this migration enter the log too, so a desk that pulls from an older cursor gets them.
INSERT INTO sync_change (txid, table_name, row_key) SELECT pg_current_xact_id()::text::bigint, 'page', jsonb_build_object('page_id', page_id) FROM "page";
--> statement-breakpoint
INSERT INTO sync_change (txid, table_name, row_key) SELECT pg_current_xact_id()::text::bigint, 'accepted_page', jsonb_build_object('accepted_page_id', accepted_page_id) FROM "accepted_page";
